/**
 * Where a /v1 call's time goes, stage by stage — for the benchmark only (`npm run bench`,
 * BENCH_ONLY=stages): off unless BENCH_STAGES names a file, and then each call's stages are
 * timed and summed per operation, and the sums written to that file when the process exits.
 * Stages: authentication (the token to a caller), limits (the bulkhead, the rate limit, the
 * credits check), procedure (input, the answer, output validation and serialisation), debit
 * (the ledger row, or the balance read of a free call), log (the call's log line and metrics);
 * the edge is the rest of the call's time on the server (URL and headers, routing, the problem or
 * answer's headers, compression).
 */
import { writeFileSync } from "node:fs";

export type Stage = "authentication" | "limits" | "procedure" | "debit" | "log";

export interface StageTotals {
  calls: number;
  /** Milliseconds summed over the calls: the whole call on the server, and each stage. */
  total: number;
  stages: Record<Stage, number>;
}

const file = process.env.BENCH_STAGES;
const totals = new Map<string, StageTotals>();
/**
 * The first calls of each kind warm the process up (the JIT, first reads into caches, the work
 * the app does just after start): they are not counted, so the first kind timed is not the
 * slowest for it.
 */
const WARM_UP_CALLS = 1_000;
const seen = new Map<string, number>();
const open = new WeakMap<object, Partial<Record<Stage, number>>>();

/** Whether stages are timed (BENCH_STAGES is set): everywhere else these helpers do nothing. */
export const timingStages = Boolean(file);

/** Adds `ms` to a stage of the call whose facts are `call` (any object the call keeps to its end). */
export function addStage(call: object, stage: Stage, ms: number): void {
  if (!file) return;
  const stages = open.get(call) ?? {};
  stages[stage] = (stages[stage] ?? 0) + ms;
  open.set(call, stages);
}

/** The call is over: its total time and stages counted under its kind (operation and status). */
export function endCall(call: object, kind: string, totalMs: number, logMs: number): void {
  if (!file) return;
  const stages = open.get(call) ?? {};
  const count = (seen.get(kind) ?? 0) + 1;
  seen.set(kind, count);
  if (count <= WARM_UP_CALLS) return;
  const sum = totals.get(kind) ?? {
    calls: 0,
    total: 0,
    stages: { authentication: 0, limits: 0, procedure: 0, debit: 0, log: 0 },
  };
  sum.calls += 1;
  sum.total += totalMs + logMs;
  for (const stage of ["authentication", "limits", "procedure", "debit"] as const)
    sum.stages[stage] += stages[stage] ?? 0;
  sum.stages.log += logMs;
  totals.set(kind, sum);
}

if (file) process.on("exit", () => writeFileSync(file, JSON.stringify(Object.fromEntries(totals))));
