/**
 * Where the log's lines go on their way to stdout: gathered in memory and handed over together,
 * at most LOG_FLUSH_MS (100 ms) after the first of them or as soon as 16 KiB wait, to a thread of
 * the log's own that writes them. A write system call per line cost a metered call about 20 µs of
 * the event loop at any load; gathered and handed over, a line costs an append.
 *
 * The writing thread waits on a stdout that does not keep up; the event loop never does. It
 * counts what it has written in memory shared with this thread, so the process always knows
 * exactly what still waits: on 'exit' (a signal handled, `process.exit`, an uncaught exception)
 * what waits is handed over and the exit waits, at most LOG_EXIT_WAIT_MS (5 s), until the thread
 * has written it all. (A write handed to libuv's pool instead, as SonicBoom does, may be queued
 * behind other work when the process ends, and is then lost: nothing can tell whether it ran.)
 * One case the bound cannot hold: Node makes a pipe on stdout non-blocking, so the thread asks a
 * full one again every 10 ms and can be stopped; if something makes it blocking again (a child
 * spawned with `stdio: "inherit"`) and nobody reads it, the thread sits in its write and the exit
 * waits for a reader, as any write to that pipe would.
 * A stdout that does not keep up holds at most LOG_BUFFER_BYTES (16 MiB) waiting before lines are
 * dropped, said on stderr now and then: the log never grows the process without bound.
 */
import { Worker } from "node:worker_threads";
import type { DestinationStream } from "pino";

/** A batch is handed over this long after its first line at the latest. */
export const LOG_FLUSH_MS = 100;
/** …or as soon as this many characters wait. */
const FLUSH_CHARS = 16 * 1024;
/** The most waiting for stdout before lines are dropped, unless LOG_BUFFER_BYTES says. */
export const DEFAULT_LOG_BUFFER_BYTES = 16 * 1024 * 1024;
/** The longest an exiting process waits for stdout to take what is still waiting. */
export const LOG_EXIT_WAIT_MS = 5_000;

/**
 * The writing thread, evaluated (nothing to resolve in a bundle) with none of the process's
 * loaders or flags, and so only Node's own modules. It writes each batch
 * whole, in order, then takes its bytes off the shared count of bytes waiting and wakes a waiter.
 * A stdout that refuses for now (EAGAIN: a non-blocking pipe that is full) is asked again a little
 * later; one that is gone (EPIPE: the reader left) ends the log; one that fails otherwise (a full
 * disk, a bad descriptor) loses that batch, says so on stderr now and then, and is tried again
 * with the next. Nothing it meets ends the thread or the process, stderr failing too included.
 */
const WRITER_SOURCE = `
const { writeSync } = process.getBuiltinModule("node:fs");
const { parentPort, workerData } = process.getBuiltinModule("node:worker_threads");
const waiting = new Int32Array(workerData.waiting);
const pause = new Int32Array(new SharedArrayBuffer(4));
const say = (text) => {
  try {
    writeSync(2, text);
  } catch {}
};
let gone = false;
let failures = 0;
parentPort.on("message", (batch) => {
  const bytes = Buffer.from(batch, "utf8");
  let at = 0;
  try {
    while (!gone && at < bytes.length) {
      try {
        at += writeSync(1, bytes, at, bytes.length - at);
      } catch (error) {
        if (error.code === "EAGAIN") Atomics.wait(pause, 0, 0, 10);
        else if (error.code === "EPIPE") gone = true;
        else {
          failures++;
          if ((failures & (failures - 1)) === 0)
            say("[log] stdout failed (" + failures + " batch(es) lost so far): " + error.message + "\\n");
          break;
        }
      }
    }
  } finally {
    Atomics.sub(waiting, 0, bytes.length);
    Atomics.notify(waiting, 0);
  }
});
`;

/** A line on stderr; a stderr that fails too (a full disk under `2>&1`) is not the process's end. */
function say(text: string): void {
  try {
    process.stderr.write(text);
  } catch {
    // Nowhere left to say it.
  }
}

export function bufferedStdout(env: NodeJS.ProcessEnv = process.env): DestinationStream {
  const asked = Number(env.LOG_BUFFER_BYTES);
  // The count of bytes waiting is one 32-bit integer shared with the writing thread.
  const limit = Number.isSafeInteger(asked) && asked > 0 ? Math.min(asked, 2 ** 31 - 1) : DEFAULT_LOG_BUFFER_BYTES;
  const waiting = new Int32Array(new SharedArrayBuffer(4));
  const writer = new Worker(WRITER_SOURCE, {
    eval: true,
    execArgv: [],
    workerData: { waiting: waiting.buffer },
  });
  writer.unref();
  let writerGone = false;
  writer.on("error", (error) => {
    writerGone = true;
    say(`[log] the log's writer failed: ${error.message}\n`);
  });
  writer.on("exit", () => {
    writerGone = true;
  });

  let dropped = 0;
  const drop = (batch: string) => {
    let lines = 0;
    for (let at = batch.indexOf("\n"); at !== -1; at = batch.indexOf("\n", at + 1)) lines++;
    const before = dropped;
    dropped += lines;
    // When the count passes a power of two: said now and then, never a line per line dropped.
    if (Math.clz32(before) !== Math.clz32(dropped))
      say(`[log] stdout is not keeping up: ${dropped} log line(s) dropped so far\n`);
  };

  let batch = "";
  let timer: NodeJS.Timeout | undefined;
  const handOver = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (batch === "") return;
    const lines = batch;
    batch = "";
    const bytes = Buffer.byteLength(lines, "utf8");
    if (writerGone || Atomics.load(waiting, 0) + bytes > limit) return drop(lines);
    Atomics.add(waiting, 0, bytes);
    writer.postMessage(lines);
  };
  process.on("exit", () => {
    handOver();
    const deadline = Date.now() + LOG_EXIT_WAIT_MS;
    for (let left = Atomics.load(waiting, 0); left > 0 && !writerGone; left = Atomics.load(waiting, 0)) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        say(`[log] stdout did not take the last ${left} byte(s) of the log before exit\n`);
        return;
      }
      Atomics.wait(waiting, 0, left, remaining);
    }
  });
  return {
    write(line: string) {
      batch += line;
      if (batch.length >= FLUSH_CHARS) handOver();
      else if (!timer) timer = setTimeout(handOver, LOG_FLUSH_MS).unref();
    },
  };
}
