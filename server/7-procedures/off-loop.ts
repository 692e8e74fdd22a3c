/**
 * Where a reading is computed: on the event loop for a market of ordinary size, on the worker pool
 * (server/3-workers/pool.ts) for one whose work grows with its size (the declaration's
 * `growsWithMarket`) once the release holds WORKER_MIN_PRODUCTS products or more (default 200).
 * The threads get the releases as shared bytes (server/3-workers/shared-release.ts) and run the
 * same declared computation (./reading-task.ts), validate the answer against the declaration's
 * output and write its JSON there too: the event loop only parses the text it is sent.
 *
 * A market of the demo's size never pays for a thread: its readings take well under a
 * millisecond. A full pool refuses at once: 503 `unavailable` with Retry-After, nothing charged
 * (the debit follows the answer).
 */
import { workersBusy } from "../1-errors/api-error";
import { runTask, WorkersBusy, workerMinProducts } from "../3-workers/pool";
import { shareRelease } from "../3-workers/shared-release";
import { answerSchema, type ReadingDeclaration } from "./declaration";
import type { ReadingScope } from "./reading-scope";
import { rememberValidated } from "./validated-once";

// biome-ignore lint/suspicious/noExplicitAny: any declaration's input and output
type AnyReading = ReadingDeclaration<any, any>;

/** Whether this reading of this release is computed on a worker thread. */
export const offLoop = (declaration: AnyReading, scope: ReadingScope) =>
  declaration.growsWithMarket === true &&
  !declaration.download &&
  scope.history === undefined &&
  scope.release.products.length >= workerMinProducts();

/** The declaration's answer for `scope` and `input`, computed where its size says. */
export function computeReading(declaration: AnyReading, scope: ReadingScope, input: Record<string, unknown>): unknown {
  if (!offLoop(declaration, scope)) return declaration.compute(scope, input);
  return onWorker(declaration, scope, input);
}

async function onWorker(declaration: AnyReading, scope: ReadingScope, input: Record<string, unknown>) {
  const [release, earlier] = await Promise.all([
    shareRelease(scope.release),
    scope.earlier ? shareRelease(scope.earlier) : undefined,
  ]);
  try {
    const json = await runTask("reading", {
      name: `${declaration.group}.${declaration.name}`,
      release,
      ...(earlier ? { earlier } : {}),
      country: scope.country,
      origin: scope.origin,
      input,
    });
    // Validated and written as JSON on the thread: the event loop only keeps the copy it was sent.
    return rememberValidated(answerSchema(declaration), JSON.parse(json) as object, json);
  } catch (error) {
    if (error instanceof WorkersBusy) throw workersBusy();
    throw error;
  }
}
