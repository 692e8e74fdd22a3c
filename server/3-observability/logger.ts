/**
 * The service's log: pino, one JSON object per line on stdout, gathered and written in batches
 * by a thread of the log's own (./log-buffer.ts; no pino transport: nothing loaded from a file
 * inside Next's bundles). The level comes from LOG_LEVEL (default info). Secrets never reach it:
 * callers log chosen fields, never request headers, and the paths below are censored in case a
 * secret-looking field slips into an object that is logged (an error's own properties, say).
 * docs/operations.md lists the fields.
 */
import pino, { type DestinationStream, type Logger } from "pino";
import { bufferedStdout } from "./log-buffer";

/** Field names that hold credentials or links that sign someone in, at the top and one level down. */
const SECRET_FIELDS = [
  "authorization",
  "cookie",
  "headers",
  "token",
  "accessToken",
  "refreshToken",
  "secret",
  "password",
  "url",
  "link",
  "parameters",
];

export const REDACTED_PATHS = [
  ...SECRET_FIELDS,
  ...SECRET_FIELDS.map((field) => `*.${field}`),
  ...SECRET_FIELDS.map((field) => `err.cause.${field}`),
  'err["set-cookie"]',
  'headers["set-cookie"]',
];

export const DEFAULT_LOG_LEVEL = "info";

/** LOG_LEVEL when it names a pino level (or `silent`), else the default. */
export function logLevel(env: NodeJS.ProcessEnv = process.env): string {
  const wanted = env.LOG_LEVEL?.trim().toLowerCase();
  return wanted && (wanted === "silent" || wanted in pino.levels.values) ? wanted : DEFAULT_LOG_LEVEL;
}

export function createLogger(
  options: { level?: string; destination?: DestinationStream; redact?: boolean } = {},
): Logger {
  return pino(
    {
      level: options.level ?? logLevel(),
      ...(options.redact === false ? {} : { redact: { paths: REDACTED_PATHS, censor: "[redacted]" } }),
      timestamp: pino.stdTimeFunctions.isoTime,
      // Levels as words ("info", "error"): what people grep for.
      formatters: { level: (label) => ({ level: label }) },
    },
    options.destination ?? stdoutDestination(),
  );
}

// On globalThis: Next may load this module in several bundles, and one process has one log.
const shared = globalThis as typeof globalThis & {
  __mpsLogger?: Logger;
  __mpsAccessLogger?: Logger;
  __mpsStdout?: DestinationStream;
};

/** This process's one stdout destination, shared by its loggers so their lines keep their order. */
function stdoutDestination(): DestinationStream {
  shared.__mpsStdout ??= bufferedStdout();
  return shared.__mpsStdout;
}

export function log(): Logger {
  if (!shared.__mpsLogger) {
    shared.__mpsLogger = createLogger();
    const wanted = process.env.LOG_LEVEL;
    if (wanted && logLevel() !== wanted.trim().toLowerCase())
      shared.__mpsLogger.warn({ logLevel: wanted }, `LOG_LEVEL is not a level; logging at ${DEFAULT_LOG_LEVEL}`);
  }
  return shared.__mpsLogger;
}

/**
 * The log of calls' lines (server/3-observability/calls.ts): the same stdout and level, without the
 * redaction pass. A call's line holds only fields chosen to hold no secret (never a header, a
 * query or a body), so redacting it changed nothing and cost some 15 µs a call on the metered
 * path; a line that carries an error goes to log(), redacted.
 */
export function accessLog(): Logger {
  shared.__mpsAccessLogger ??= createLogger({ redact: false });
  return shared.__mpsAccessLogger;
}

/** Makes `logger` this process's log from now on, calls' lines too (the tests keep its lines: tests/helpers/setup-logs.ts). */
export function replaceLog(logger: Logger): void {
  shared.__mpsLogger = logger;
  shared.__mpsAccessLogger = logger;
}

/**
 * How a failure's error is logged: an unexpected one (internal_error) whole, with its stack and
 * its causes'; a database that cannot be reached (unavailable) by its message alone. A deliberate
 * refusal needs nothing more than its problem code.
 */
export function errorFields(problem: string | null, error: unknown): Record<string, unknown> {
  if (error === undefined || error === null) return NO_FAILURE;
  if (problem === "internal_error") return { err: error };
  if (problem === "unavailable") return { error: errorMessage(error) };
  return NO_FAILURE;
}

const { streamSym, chindingsSym, needsMetadataGsym } = pino.symbols;

/**
 * An info line, as `logger.info(fields, message)` writes it — the same keys, in the same order,
 * the same bindings and time — but with its fields written by one JSON.stringify rather than
 * pino's walk over them and its formatters (a call's line cost some 20 µs that way). For the
 * lines of calls (server/3-observability/calls.ts), whose fields are chosen and hold no secret: no
 * redaction, no serializers. tests/unit/observability.test.ts holds it to pino's own line.
 */
export function writeInfoLine(logger: Logger, fields: object, message: string): void {
  if (!logger.isLevelEnabled("info")) return;
  const internals = logger as unknown as Record<symbol, unknown>;
  const stream = internals[streamSym] as (DestinationStream & Record<symbol, unknown>) | undefined;
  if (!stream || stream[needsMetadataGsym]) {
    logger.info(fields, message);
    return;
  }
  const json = JSON.stringify(fields);
  const body = json.length > 2 ? `,${json.slice(1, -1)}` : "";
  const bindings = internals[chindingsSym] as string;
  stream.write(
    `{"level":"info","time":"${new Date().toISOString()}"${bindings}${body},"msg":${JSON.stringify(message)}}\n`,
  );
}

/** What errorFields gives when nothing of the error is logged (one frozen object: tell it by identity). */
export const NO_FAILURE: Record<string, unknown> = Object.freeze({});

export const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));
