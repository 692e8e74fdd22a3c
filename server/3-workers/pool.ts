/**
 * The one pool of worker threads for CPU-heavy work that a request may start: rasterising an
 * embed's PNG, building a release's export. A thread, never the event loop, spends that CPU, so
 * one public link of a large market cannot stall every other customer (docs/performance.md,
 * "Work that grows with a market").
 *
 * Bounded twice, by piscina (a maintained pool, not a home-made one):
 * - WORKER_THREADS threads at most (default: the machine's cores less one, at least one), so the
 *   event loop keeps a core;
 * - WORKER_QUEUE tasks waiting at most (default 16). A task past that is refused at once
 *   (`WorkersBusy`): the caller answers 503 with Retry-After instead of holding a request open.
 * - Its threads run at a lower priority (WORKER_NICE, default +10): when the cores are busy, the
 *   event loop that answers every customer is scheduled first, and a rendering waits.
 *
 * Tasks are named (./tasks.ts); the threads load TypeScript through tsx (./worker-entry.mjs) from
 * the project's folder, which Next does not bundle.
 */
import { availableParallelism } from "node:os";
import path from "node:path";
import { Piscina } from "piscina";
import type { TaskInput, TaskName, TaskOutput } from "./tasks";

/** The pool's queue is full: nothing was started, retry after `RETRY_AFTER_SECONDS`. */
export class WorkersBusy extends Error {
  constructor() {
    super("every worker thread is busy and the queue is full");
    this.name = "WorkersBusy";
  }
}

/** Seconds a refused caller is told to wait: about one task's time. */
export const WORKERS_RETRY_AFTER_SECONDS = 2;

function wholeSetting(name: string, fallback: number): number {
  const value = Number(process.env[name] || fallback);
  return Number.isSafeInteger(value) && value >= 1 ? value : fallback;
}

/**
 * From how many products a release is "large": its readings whose work grows with the market are
 * computed on the pool (server/7-procedures/off-loop.ts), and its sensitivity is read only for them
 * (server/3-catalog/store.ts). WORKER_MIN_PRODUCTS, default 200: the demo's markets never pay for a thread.
 */
export const workerMinProducts = () => wholeSetting("WORKER_MIN_PRODUCTS", 200);

export function poolSettings(): { threads: number; queue: number; nice: number } {
  const nice = Number(process.env.WORKER_NICE ?? 10);
  return {
    threads: wholeSetting("WORKER_THREADS", Math.max(1, availableParallelism() - 1)),
    queue: wholeSetting("WORKER_QUEUE", 16),
    nice: Number.isInteger(nice) && nice >= 0 && nice <= 19 ? nice : 10,
  };
}

const state = globalThis as typeof globalThis & { __mpsWorkerPool?: Piscina };

function pool(): Piscina {
  if (!state.__mpsWorkerPool) {
    const { threads, queue, nice } = poolSettings();
    state.__mpsWorkerPool = new Piscina({
      filename: path.join(/*turbopackIgnore: true*/ process.cwd(), "server", "3-workers", "worker-entry.mjs"),
      minThreads: 0,
      maxThreads: threads,
      maxQueue: queue,
      // Through @napi-rs/nice (piscina's own optional dependency); a machine without it runs them at normal priority.
      niceIncrement: nice,
      // An idle thread goes after a minute: a quiet instance holds no thread's memory.
      idleTimeout: 60_000,
    });
  }
  return state.__mpsWorkerPool;
}

/** Runs `task` on a worker thread; `WorkersBusy` at once when the queue is full. */
export async function runTask<Name extends TaskName>(task: Name, input: TaskInput<Name>): Promise<TaskOutput<Name>> {
  const workers = pool();
  const { queue } = poolSettings();
  // Refused before it is queued: piscina's own refusal is the same, this one names it.
  if (workers.queueSize >= queue) throw new WorkersBusy();
  try {
    return (await workers.run({ task, input })) as TaskOutput<Name>;
  } catch (error) {
    if (error instanceof Error && /queue is at limit/i.test(error.message)) throw new WorkersBusy();
    throw error;
  }
}

/** What the pool holds now (for the size suite and metrics). */
export function poolLoad(): { threads: number; queued: number; completed: number } {
  const workers = state.__mpsWorkerPool;
  return workers
    ? { threads: workers.threads.length, queued: workers.queueSize, completed: workers.completed }
    : { threads: 0, queued: 0, completed: 0 };
}

/** Ends the threads (tests, shutdown). */
export async function closePool(): Promise<void> {
  const workers = state.__mpsWorkerPool;
  state.__mpsWorkerPool = undefined;
  await workers?.destroy();
}
