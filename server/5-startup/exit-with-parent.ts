/**
 * Started by `npm start` (scripts/start.ts) over an IPC channel: if that process dies, even by
 * SIGKILL, the channel closes and the server goes with it, releasing the port and the embedded
 * database instead of lingering as an orphan that a restart would find in the way.
 */
export function exitWithParent(): void {
  if (process.send) process.once("disconnect", () => process.exit(1));
}
