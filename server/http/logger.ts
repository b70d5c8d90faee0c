/** The API's logs: pino underneath, one JSON line each, personal data left out (decision 125). */
export { createLogger, createMemoryLogger, type Logger } from "../../common/log/logger.server.ts";
