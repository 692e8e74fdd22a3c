/**
 * Setup of every test file (vitest.config.ts): keeps what the code under test logs out of a
 * passing run's output, and prints it for a test that fails (tests/helpers/captured-logs.ts).
 * Sources: this process's log (server/3-observability/logger.ts), the apps the file starts
 * (tests/helpers/server.ts), and the suites' shared app, from its log file (tests/app/global-setup.ts).
 * TEST_SHOW_LOGS=1 leaves everything printed as it comes.
 */
import { closeSync, existsSync, openSync, readSync, statSync } from "node:fs";
import { afterAll, beforeEach, inject } from "vitest";
import { createLogger, replaceLog } from "@/server/3-observability/logger";
import { formatLogs, type KeptLog, keepLog, SHOW_LOGS, setRunningTest, startCapture, takeLogs } from "./captured-logs";

const THIS_PROCESS = "the test process's own log (code the test calls in process)";
const SHARED_APP = "the shared app";

if (!SHOW_LOGS) {
  startCapture();
  replaceLog(createLogger({ destination: { write: (line: string) => keepLog(THIS_PROCESS, line) } }));
}

/** The shared app's log file in the projects that start one (app, browser); undefined elsewhere. */
const appLogFile: string | undefined = inject("appLogFile");
const fileSize = (file: string) => (existsSync(file) ? statSync(file).size : 0);

/** What the shared app logged from byte `from` of its log file on. */
function sharedAppLog(file: string, from: number): KeptLog[] {
  const size = fileSize(file);
  if (size <= from) return [];
  const buffer = Buffer.alloc(size - from);
  const fd = openSync(file, "r");
  try {
    readSync(fd, buffer, 0, buffer.length, from);
  } finally {
    closeSync(fd);
  }
  return [{ test: undefined, source: SHARED_APP, text: buffer.toString("utf8") }];
}

if (!SHOW_LOGS) {
  beforeEach(({ task, onTestFinished }) => {
    setRunningTest(task.id);
    const appLogFrom = appLogFile ? fileSize(appLogFile) : 0;
    onTestFinished(() => {
      setRunningTest(undefined);
      const logs = takeLogs(task.id);
      if (task.result?.state !== "fail") return;
      const printed = formatLogs(`logs of the failed test "${task.name}"`, [
        ...logs,
        ...(appLogFile ? sharedAppLog(appLogFile, appLogFrom) : []),
      ]);
      if (printed) console.log(printed);
    });
  });

  // biome-ignore lint/correctness/noEmptyPattern: vitest wants the (unused) hook context destructured
  afterAll(({}, file) => {
    const logs = takeLogs(undefined);
    if (!anyFailed(file)) return;
    const printed = formatLogs(`logs outside the tests of ${file.name}, where something failed`, logs);
    if (printed) console.log(printed);
  });
}

interface Task {
  result?: { state?: string };
  tasks?: Task[];
}
const anyFailed = (task: Task): boolean => task.result?.state === "fail" || (task.tasks ?? []).some(anyFailed);
