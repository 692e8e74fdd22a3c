/**
 * What the code under test logs, kept out of a passing run's output. Tests that expect a failure
 * (a refused call, a fetch that fails, a database that goes away) make the service log it, at
 * error level with a stack; printed, such lines read as failures of the run. So, in each test
 * worker (tests/helpers/setup-logs.ts), the lines of this process's log and of every app a test
 * starts (tests/helpers/server.ts) are kept in memory, by the test that was running, and printed
 * only for a test that fails (the lines logged outside any test, by hooks, when anything in the
 * file failed). With TEST_SHOW_LOGS=1 nothing is kept: every line is printed as it comes, in every
 * process (also the suites' shared app, started by tests/app/global-setup.ts).
 */
export const SHOW_LOGS = process.env.TEST_SHOW_LOGS === "1";

export interface KeptLog {
  /** The test running when it was logged; undefined outside any test (hooks, background work). */
  test: string | undefined;
  /** Where it comes from: this process's log, or an app the tests started. */
  source: string;
  text: string;
}

/** Undefined until a test worker starts capturing: elsewhere (global setup, benches) nothing is kept. */
let kept: KeptLog[] | undefined;
let runningTest: string | undefined;

/** Keeps what `source` logged (whole lines or any chunk of them); printed at once with TEST_SHOW_LOGS=1. */
export function keepLog(source: string, text: string): void {
  if (SHOW_LOGS) process.stdout.write(text);
  else kept?.push({ test: runningTest, source, text });
}

export function startCapture(): void {
  kept ??= [];
}

/** Attributes what is logged from now on to `test` (undefined: to no test). */
export function setRunningTest(test: string | undefined): void {
  runningTest = test;
}

/** Removes and returns what was logged during `test` (undefined: outside any test). */
export function takeLogs(test: string | undefined): KeptLog[] {
  const taken = (kept ?? []).filter((entry) => entry.test === test);
  kept = (kept ?? []).filter((entry) => entry.test !== test);
  return taken;
}

/** At most this many lines of each source are printed (the last ones). */
const MAX_LINES = 200;

/** The kept logs under a heading, one block per source; empty when there is nothing. */
export function formatLogs(heading: string, logs: { source: string; text: string }[]): string {
  const bySource = new Map<string, string>();
  for (const { source, text } of logs) bySource.set(source, (bySource.get(source) ?? "") + text);
  const blocks = [...bySource].flatMap(([source, text]) => {
    const lines = text.split("\n").filter((line) => line.trim() !== "");
    if (lines.length === 0) return [];
    const dropped = lines.length - MAX_LINES;
    return [
      `--- ${source} (${lines.length} line${lines.length === 1 ? "" : "s"}${dropped > 0 ? `, the last ${MAX_LINES} shown; all of them: TEST_SHOW_LOGS=1` : ""}) ---`,
      ...lines.slice(-MAX_LINES),
    ];
  });
  return blocks.length ? [`=== ${heading} ===`, ...blocks].join("\n") : "";
}
