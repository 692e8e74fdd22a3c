/**
 * The server process: `npm start` runs it once the build is current (scripts/start.ts), `npm run
 * dev` with --dev. It decides the dev outbox from the operator's environment (refusing to start in
 * production without SMTP_URL unless DEV_OUTBOX=1; server/5-startup/dev-outbox.ts) before anything
 * defaults NODE_ENV (and whether client metadata documents may live on private hosts:
 * server/5-startup/client-metadata-hosts.ts), then serves the app on PORT (default 3000) with server/5-http-server/http-server.ts.
 * The API (/v1, /mcp) is answered from Node directly by the routing table
 * (server/9-routing/api-routes.ts), in development as in production: one path for both. Edits to
 * the API's code take a restart of `npm run dev` (pages still reload).
 */
import { appUrlOrExit } from "../server/5-startup/app-url";
import { billingOrExit } from "../server/5-startup/billing";
import { decidePrivateHosts, PRIVATE_HOSTS_SETTINGS } from "../server/5-startup/client-metadata-hosts";
import { isProduction, outboxOrExit } from "../server/5-startup/dev-outbox";

const dev = process.argv.includes("--dev");
appUrlOrExit(process.env);
billingOrExit(process.env);
const outbox = outboxOrExit(process.env);
// The page and the sign-in flow read the decision from here on.
process.env.DEV_OUTBOX = outbox.outbox ? "1" : "0";
if (outbox.warning) {
  const rule = "!".repeat(100);
  console.warn(`${rule}\n${outbox.warning}\n${rule}`);
}
for (const name of PRIVATE_HOSTS_SETTINGS) {
  const privateHosts = decidePrivateHosts(process.env, name);
  if (privateHosts.refusal) {
    console.error(privateHosts.refusal);
    process.exit(1);
  }
  if (privateHosts.warning) console.warn(privateHosts.warning);
  process.env[name] = privateHosts.allowed ? "1" : "0";
}
// Production as the operator declared it, before the default below makes every build "production".
const production = isProduction(process.env);
// As `next start` and `next dev` do, and before Next and React load: they read it once.
Object.assign(process.env, { NODE_ENV: process.env.NODE_ENV || (dev ? "development" : "production") });

const { serve } = await import("../server/5-http-server/http-server");
const { stopJobs } = await import("../server/8-jobs/worker");
const { apiRoutes } = await import("../server/9-routing/api-routes");
const { startCpuProfile } = await import("./cpu-profile");
const stopProfile = await startCpuProfile(process.env.CPU_PROFILE_DIR);
// On SIGTERM the job workers finish what they hold before the process exits.
await serve({
  dir: process.cwd(),
  port: Number(process.env.PORT || 3000),
  dev,
  production,
  onClose: async () => {
    await stopJobs();
    await stopProfile();
  },
  routes: apiRoutes(),
});
