/**
 * Structured one-line JSON logs through pino, for the API and the page server (server-only; the
 * proxy, which must run on edge runtimes, writes its few lines with console). Decision 125.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { pino, type DestinationStream, type LevelWithSilent, type LoggerOptions } from "pino";
import { MASK, scrubText } from "./scrub.ts";
import { standardOutput } from "./standard-output.server.ts";

export { logLevelOf } from "./log-level.ts";

/** What the portal's code logs through: a message and facts, never secrets, tokens or passwords. */
export type Logger = {
  debug(message: string, facts?: Record<string, unknown>): void;
  info(message: string, facts?: Record<string, unknown>): void;
  warn(message: string, facts?: Record<string, unknown>): void;
  error(message: string, facts?: Record<string, unknown>): void;
};

/**
 * Fields left out of every line by name, at any depth: what identifies a student or lets someone
 * act as them, and the query of a URL. Masked in the same walk that scrubs the line's text:
 * pino's own \`redact\` with wildcard paths cost twenty times the rest of a line (decision 125).
 */
const PERSONAL_FIELDS = new Set([
  "phone",
  "email",
  "username",
  "password",
  "newPassword",
  "currentPassword",
  "token",
  "access",
  "secret",
  "authorization",
  "cookie",
  "set-cookie",
  "x-portal-proxy",
  "query",
  "search",
]);

const requestContext = new AsyncLocalStorage<{ requestId: string }>();

/**
 * Runs `work` with `requestId` on every line logged meanwhile, by any logger and however deep
 * in the call, so a route's helpers need not pass the id along.
 */
export function withRequestId<T>(requestId: string, work: () => T): T {
  return requestContext.run({ requestId }, work);
}

/** The id of the request being answered, if any. */
export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.requestId;
}

function pinoOptions(level: LevelWithSilent): LoggerOptions {
  return {
    level,
    messageKey: "message",
    // Existing lines put the error (with its stack) under "error"; operators' filters read it there.
    errorKey: "error",
    formatters: {
      level: (label) => ({ level: label }),
      log: (facts) => scrubValues(facts, 0) as Record<string, unknown>,
    },
    serializers: { error: serializeError },
    // A new object each time: pino merges the line's facts into what mixin returns.
    mixin: () => {
      const requestId = requestContext.getStore()?.requestId;
      return requestId ? { requestId } : {};
    },
  };
}

function adapt(log: pino.Logger): Logger {
  const write =
    (level: "debug" | "info" | "warn" | "error") =>
    (message: string, facts: Record<string, unknown> = {}) => {
      // The request lines of in-process hops go at debug (decision 112): not scrubbed for nothing.
      if (log.isLevelEnabled(level)) log[level](facts, scrubText(message));
    };
  return { debug: write("debug"), info: write("info"), warn: write("warn"), error: write("error") };
}

/** A logger writing JSON lines to `destination` (standard output, written in the background, by default). */
export function createLogger(options: {
  name: string;
  level: LevelWithSilent;
  destination?: DestinationStream;
}): Logger {
  const settings = {
    ...pinoOptions(options.level),
    name: options.name,
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return adapt(pino(settings, options.destination ?? standardOutput()));
}

/**
 * A logger that keeps its lines in memory, for tests that assert what was (or was not) logged:
 * the same redaction as the real one, without time, process or host.
 */
export function createMemoryLogger(level: LevelWithSilent = "info"): Logger & { lines: string[] } {
  const lines: string[] = [];
  const destination = { write: (line: string) => void lines.push(line.trimEnd()) };
  const log = pino({ ...pinoOptions(level), base: undefined, timestamp: false }, destination);
  return { lines, ...adapt(log) };
}

/**
 * An error as text: its stack (or message) and its causes', scrubbed. Other properties are left
 * out: a driver's error carries the failed row (`detail: Key (email)=(…) already exists`).
 */
function serializeError(value: unknown): unknown {
  if (typeof value === "string") return scrubText(value);
  if (!(value instanceof Error)) return value;
  const parts: string[] = [];
  for (let error: unknown = value, depth = 0; error !== undefined && depth < 5; depth += 1) {
    if (!(error instanceof Error)) {
      parts.push(String(error));
      break;
    }
    parts.push(error.stack ?? `${error.name}: ${error.message}`);
    error = error.cause;
  }
  return scrubText(parts.join("\ncaused by: "));
}

function scrubValues(value: unknown, depth: number): unknown {
  if (typeof value === "string") return scrubText(value);
  if (depth > 3 || value === null || typeof value !== "object" || value instanceof Error)
    return value;
  if (Array.isArray(value)) return value.map((item) => scrubValues(item, depth + 1));
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  const scrubbed: Record<string, unknown> = {};
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    scrubbed[key] =
      PERSONAL_FIELDS.has(key) && item !== undefined && item !== null
        ? MASK
        : scrubValues(item, depth + 1);
  }
  return scrubbed;
}
