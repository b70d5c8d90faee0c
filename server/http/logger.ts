/** Structured one-line logs. Callers pass facts, never secrets, tokens or passwords. */
export type Logger = {
  info(message: string, facts?: Record<string, unknown>): void;
  warn(message: string, facts?: Record<string, unknown>): void;
  error(message: string, facts?: Record<string, unknown>): void;
};

export function createConsoleLogger(name: string): Logger {
  const write =
    (level: "info" | "warn" | "error") => (message: string, facts: Record<string, unknown> = {}) =>
      console[level](JSON.stringify({ time: new Date().toISOString(), level, name, message, ...facts }));
  return { info: write("info"), warn: write("warn"), error: write("error") };
}

/** A logger that keeps lines in memory, for tests that assert what was (or was not) logged. */
export function createMemoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const write = (level: string) => (message: string, facts: Record<string, unknown> = {}) =>
    void lines.push(JSON.stringify({ level, message, ...facts }));
  return { lines, info: write("info"), warn: write("warn"), error: write("error") };
}
