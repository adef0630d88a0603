// How the core reports what it does: one record type, levels, and sinks chosen by whoever starts the
// service (the CLI writes lines to stderr, the UI keeps the log, tests stay quiet).
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogRecord = Readonly<{ level: LogLevel; message: string; context?: Readonly<Record<string, unknown>> }>;
export type LogSink = (record: LogRecord) => void;

export type Logger = Readonly<{
  debug(message: string, context?: Record<string, unknown>): void;
  info(message: string, context?: Record<string, unknown>): void;
  warn(message: string, context?: Record<string, unknown>): void;
  error(message: string, context?: Record<string, unknown>): void;
}>;

const ORDER: Record<LogLevel | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export function createLogger(sinks: readonly LogSink[], minimum: LogLevel | 'silent' = 'info'): Logger {
  const emit = (level: LogLevel) => (message: string, context?: Record<string, unknown>) => {
    if (ORDER[level] < ORDER[minimum]) return;
    const record: LogRecord = context === undefined ? { level, message } : { level, message, context };
    for (const sink of sinks) {
      try {
        sink(record);
      } catch {
        // A broken sink must not take the connector down with it.
      }
    }
  };
  return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error') };
}

/** One JSON line per record, for the CLI's stderr. */
export function jsonLineSink(write: (line: string) => void): LogSink {
  return (record) => write(`${JSON.stringify({ time: new Date().toISOString(), ...record })}\n`);
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
