/**
 * Next.js start-up hook: start the metrics, open, migrate and seed the
 * database before the first request, then start the job workers.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  // Node-only modules are imported here, inside the Node branch, so the Edge build never sees them.
  (await import("./server/5-startup/exit-with-parent")).exitWithParent();
  (await import("./server/3-observability/metrics")).serviceMetrics(); // event-loop lag is measured from now
  const { getDatabase } = await import("./server/5-database/app-database");
  const { errorMessage, log } = await import("./server/3-observability/logger");
  // Background jobs run on the queue in the database; every instance takes its share. Until the
  // database answers, requests retry on their own and so does this, every few seconds.
  const { startJobs } = await import("./server/8-jobs/worker");
  const start = async () => {
    try {
      const handle = await getDatabase();
      if (process.env.JOB_WORKERS !== "0") await startJobs(handle);
    } catch (error) {
      log().error({ error: errorMessage(error) }, "database not ready");
      setTimeout(start, 5000).unref();
    }
  };
  await start();
}
