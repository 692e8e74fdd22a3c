/**
 * Where the log's lines go on their way to stdout: gathered in memory and written together, at
 * most LOG_FLUSH_MS (100 ms) after the first of them or as soon as 16 KiB wait, by one
 * asynchronous write (SonicBoom). A write system call per line cost a metered call about 20 µs of
 * the event loop at any load; gathered, a line costs an append.
 *
 * Nothing waiting is lost when the process exits, however it exits short of SIGKILL (a signal
 * handled, `process.exit`, an uncaught exception): what waits is written synchronously on 'exit'.
 * A stdout that does not keep up (nobody reads the pipe, a full disk) holds at most
 * LOG_BUFFER_BYTES (16 MiB) before lines are dropped, said on stderr now and then: the log never
 * grows the process without bound, and never blocks the event loop on a full pipe.
 */
import type { DestinationStream } from "pino";
import SonicBoom from "sonic-boom";

/** A batch is written this long after its first line at the latest. */
export const LOG_FLUSH_MS = 100;
/** …or as soon as this many characters wait. */
const FLUSH_CHARS = 16 * 1024;
/** The most waiting for stdout before lines are dropped, unless LOG_BUFFER_BYTES says. */
export const DEFAULT_LOG_BUFFER_BYTES = 16 * 1024 * 1024;

export function bufferedStdout(env: NodeJS.ProcessEnv = process.env): DestinationStream {
  const limit = Number(env.LOG_BUFFER_BYTES);
  const stdout = new SonicBoom({
    fd: 1,
    sync: false,
    maxLength: Number.isSafeInteger(limit) && limit > 0 ? limit : DEFAULT_LOG_BUFFER_BYTES,
  });
  let dropped = 0;
  stdout.on("drop", () => {
    dropped += 1;
    // At powers of two: said now and then, never a line per line dropped.
    if ((dropped & (dropped - 1)) === 0)
      process.stderr.write(`[log] stdout is not keeping up: ${dropped} log line(s) dropped so far\n`);
  });
  // A closed pipe (the reader gone) ends the log, not the process.
  stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") process.stderr.write(`[log] stdout failed: ${error.message}\n`);
  });

  let waiting = "";
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (waiting === "") return;
    const batch = waiting;
    waiting = "";
    stdout.write(batch);
  };
  process.on("exit", () => {
    flush();
    try {
      stdout.flushSync();
    } catch {
      // stdout gone: nothing more can be said.
    }
  });
  return {
    write(line: string) {
      waiting += line;
      if (waiting.length >= FLUSH_CHARS) flush();
      else if (!timer) timer = setTimeout(flush, LOG_FLUSH_MS).unref();
    },
  };
}
