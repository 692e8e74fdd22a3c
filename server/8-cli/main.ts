/** Process entry of the operator CLI; all behaviour is in run.ts. */
import { databaseConfigFromEnv, openDatabase } from "../../db/client";
import { migrateDatabase } from "../../db/migrate";
import { runCli } from "./run";

const exitCode = await runCli(process.argv.slice(2), {
  io: { out: (line) => process.stdout.write(`${line}\n`), err: (line) => process.stderr.write(`${line}\n`) },
  openDatabase: async () => {
    const handle = await openDatabase(databaseConfigFromEnv());
    try {
      await migrateDatabase(handle);
    } catch (error) {
      await handle.close();
      throw error;
    }
    return handle;
  },
  now: () => new Date(),
}).catch((error: unknown) => {
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  return 1;
});
process.exitCode = exitCode;
