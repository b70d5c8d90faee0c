import { z } from "zod";

/**
 * LOG_LEVEL, read by the API, the page server and the proxy (decision 125). No node: imports and
 * no pino here: the proxy reads it too, and runs on edge runtimes.
 */
export const LogLevel = z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]);
export type LogLevel = z.infer<typeof LogLevel>;

/** LOG_LEVEL as a setting: empty means the default, info (silent under NODE_ENV=test). */
export const LogLevelSetting = z
  .string()
  .trim()
  .toLowerCase()
  .optional()
  .transform((value) => value || undefined)
  .pipe(LogLevel.optional());

/** The level in force: LOG_LEVEL, or info; tests are silent unless LOG_LEVEL asks otherwise. */
export function logLevelOf(env: { LOG_LEVEL?: string; NODE_ENV?: string }): LogLevel {
  const given = LogLevelSetting.safeParse(env.LOG_LEVEL);
  if (given.success && given.data) return given.data;
  return env.NODE_ENV === "test" ? "silent" : "info";
}

/** Whether one line per request is written at this level (they are info lines). */
export function logsRequests(level: LogLevel) {
  return level === "info" || level === "debug" || level === "trace";
}
