/**
 * The floor of a metered call: a bare Node http server that, for every request, writes the one
 * thing the contract demands of a paid call — its debit (the organization's balance and its own
 * ledger row, through the app's own batched `debitCredits`) — and then answers with the reading's
 * bytes. No framework, no authentication, no routing: what is left when everything removable is
 * gone. It opens its own database (BENCH_DEBIT_DATABASE: a PostgreSQL URL, else an embedded PGlite
 * folder), as the app does, on the same kind of storage the app under test uses.
 * Prints its URL, then serves until killed.
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { openDatabase } from "@/db/client";
import { debitCredits } from "@/server/4-credits/credits";
import { demoCatalogueWithOrganization } from "../helpers/accounts";

const floorDir = process.env.BENCH_FLOOR_DIR as string;
const target = process.env.BENCH_DEBIT_DATABASE as string;
const COSTS: Record<string, number> = { snapshot: 5, delta: 3 };
const bodies = new Map(Object.keys(COSTS).map((name) => [name, readFileSync(path.join(floorDir, `${name}.json`))]));

const handle = await openDatabase(
  target.startsWith("postgres") ? { kind: "postgres", url: target } : { kind: "pglite", dataDir: target },
);
const organization = await demoCatalogueWithOrganization(handle, "Debit floor", 2_000_000_000);

const server = createServer((request, response) => {
  const name = new URL(request.url ?? "/", "http://x").searchParams.get("name") ?? "";
  const body = bodies.get(name);
  if (!body) return void response.writeHead(404).end();
  debitCredits(handle.db, {
    organizationId: organization.id,
    cost: COSTS[name] as number,
    operation: name,
    tokenId: null,
    requestId: randomUUID(),
  }).then(
    (debit) => {
      if (!debit.ok) return void response.writeHead(402).end();
      response.writeHead(200, { "Content-Type": "application/json", "Content-Length": body.length }).end(body);
    },
    () => response.writeHead(503).end(),
  );
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  console.log(`http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`);
});
