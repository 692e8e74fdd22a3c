/** Next.js start-up hook: open, migrate and seed the database before the first request. */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  // Started by `npm start` (scripts/start.ts) over an IPC channel: if that process dies, even by
  // SIGKILL, the channel closes and the server goes with it, releasing the port and the embedded
  // database instead of lingering as an orphan that a restart would find in the way.
  if (process.send) process.once("disconnect", () => process.exit(1));
  const { getDatabase } = await import("./db");
  try {
    await getDatabase();
  } catch (error) {
    // Requests retry; say clearly why the service cannot answer yet.
    console.error(`[db] not ready: ${error instanceof Error ? error.message : String(error)}`);
  }
}
