/** Next.js start-up hook: open, migrate and seed the database before the first request. */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  // Node-only modules are imported here, inside the Node branch, so the Edge build never sees them.
  (await import("./server/process/exit-with-parent")).exitWithParent();
  const { getDatabase } = await import("./db");
  try {
    await getDatabase();
  } catch (error) {
    // Requests retry; say clearly why the service cannot answer yet.
    console.error(`[db] not ready: ${error instanceof Error ? error.message : String(error)}`);
  }
}
