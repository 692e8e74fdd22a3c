/**
 * Every surface answers a database fault in its own protocol, on two instances sharing one private
 * PostgreSQL: while the server's connections are killed over and over, and while it is stopped.
 * REST: 503 problem+json `unavailable` with Retry-After. MCP: a tool error or a JSON-RPC error
 * carrying `unavailable`. The OAuth token endpoint: 503 `temporarily_unavailable`. Dashboard
 * pages: a readable 503 page. Never a bare 500, never an empty body; no failure is charged.
 */
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "@/db/client";
import { queryRows } from "@/db/rows";
import { demoCatalogueWithOrganization, type FixtureOrganization } from "../helpers/accounts";
import { postToolCall } from "../helpers/mcp";
import { createPgCluster, type PgCluster } from "../helpers/pg-cluster";
import { type RunningApp, startInstances } from "../helpers/server";

interface Seen {
  surface: "rest" | "mcp" | "oauth" | "page";
  status: number;
  contentType: string;
  /** The stable code the answer carries, or "ok". */
  code: string;
  retryAfter: string | null;
  /** The start of the body, to show when an answer is not one of the expected. */
  excerpt: string;
}

async function ask(app: RunningApp, surface: Seen["surface"], token: string): Promise<Seen> {
  const request: Record<Seen["surface"], () => Promise<Response>> = {
    rest: () =>
      fetch(`${app.url}/v1/markets/foundation-model-apis/snapshot`, { headers: { Authorization: `Bearer ${token}` } }),
    mcp: () => postToolCall(app.url, token, "service_market_get_snapshot", { marketId: "foundation-model-apis" }, 7),
    oauth: () =>
      fetch(`${app.url}/oauth/token`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: "no-such-token", client_id: "nobody" }),
      }),
    page: () => fetch(`${app.url}/`),
  };
  const response = await request[surface]().catch((error: unknown) => {
    // No answer at all: say what the server said meanwhile.
    throw new Error(`${surface}: no answer (${String(error)}); the app's last lines:\n${app.output().slice(-3000)}`);
  });
  const contentType = response.headers.get("content-type") ?? "";
  const text = await response.text();
  return {
    surface,
    status: response.status,
    contentType,
    code: codeOf(surface, response.status, contentType, text),
    retryAfter: response.headers.get("retry-after"),
    excerpt: text
      .replace(/<[^>]+>/g, " ")
      .replace(/\s+/g, " ")
      .slice(0, 160),
  };
}

/** What an answer says, in each protocol's own terms. */
function codeOf(surface: Seen["surface"], status: number, contentType: string, text: string): string {
  if (text.length === 0) return "EMPTY";
  // A page: ours while the probe saw the fault, Next's error page in words when it came mid-render.
  if (surface === "page")
    return status === 200 ? "ok" : /Temporarily unavailable|could not be loaded/.test(text) ? "unavailable" : "PAGE?";
  if (surface === "oauth") return (JSON.parse(text) as { error: string }).error;
  if (surface === "rest") return status === 200 ? "ok" : (JSON.parse(text) as { code: string }).code;
  // MCP: JSON or one server-sent event.
  const json = contentType.includes("text/event-stream") ? (text.split("\ndata: ")[1]?.split("\n")[0] ?? "") : text;
  const message = JSON.parse(json) as {
    result?: { isError?: boolean; _meta?: { problem?: { code: string } } };
    error?: { data?: { code: string } };
  };
  if (message.error) return message.error.data?.code ?? "RPC?";
  if (message.result?.isError) return message.result._meta?.problem?.code ?? "TOOL?";
  return "ok";
}

/** Answers a surface may give: its success, or its protocol's way of saying "unavailable". */
const ACCEPTABLE: Record<Seen["surface"], string[]> = {
  rest: ["200 ok", "503 unavailable"],
  mcp: ["200 ok", "200 unavailable", "503 unavailable"],
  // A client nobody registered: invalid_client when the database answers.
  oauth: ["401 invalid_client", "503 temporarily_unavailable"],
  page: ["200 ok", "503 unavailable"],
};

/** The errors the apps logged, to show beside an answer that is not one of the expected. */
const loggedErrors = (apps: RunningApp[]) =>
  apps
    .flatMap((app) => app.output().split("\n"))
    .filter((line) => /"level":"(error|fatal)"/.test(line))
    .slice(-5)
    .join("\n");

function expectWellFormed(seen: Seen[], apps: RunningApp[]) {
  for (const answer of seen) {
    const acceptable = ACCEPTABLE[answer.surface].includes(`${answer.status} ${answer.code}`);
    expect(acceptable, `${JSON.stringify(answer)}\nthe apps' last errors:\n${loggedErrors(apps)}`).toBe(true);
    if (answer.status === 503) expect(Number(answer.retryAfter), JSON.stringify(answer)).toBeGreaterThan(0);
  }
}

describe("faults on every surface, two instances", () => {
  let cluster: PgCluster;
  let apps: RunningApp[];
  let fixture: FixtureOrganization;

  beforeAll(async () => {
    cluster = await createPgCluster();
    const handle = await openDatabase({ kind: "postgres", url: cluster.url });
    fixture = await demoCatalogueWithOrganization(handle, "Surfaces", 10_000_000);
    await handle.close();
    const env = { DATABASE_URL: cluster.url, RATE_LIMIT: "1000000000", REDIS_URL: "" };
    apps = await startInstances(2, env);
  }, 400_000);

  afterAll(async () => {
    await Promise.all((apps ?? []).map((app) => app.stop()));
    cluster?.destroy();
  });

  const round = () =>
    Promise.all(
      (apps ?? []).flatMap((app) =>
        (["rest", "mcp", "oauth", "page"] as const).map((surface) => ask(app, surface, fixture.token)),
      ),
    );

  it("answers in each protocol while every connection is killed again and again", async () => {
    const killer = postgres(cluster.url, { max: 1, onnotice: () => {} });
    const seen: Seen[] = [];
    let killing = true;
    const kills = (async () => {
      let n = 0;
      while (killing) {
        await killer`select pg_terminate_backend(pid) from pg_stat_activity
                     where datname = current_database() and pid <> pg_backend_pid()`;
        n++;
        await new Promise((r) => setTimeout(r, 150));
      }
      return n;
    })();
    try {
      for (let i = 0; i < 25; i++) seen.push(...(await round()));
    } finally {
      killing = false;
      console.log(`[faults] surfaces under ${await kills} rounds of killed connections: ${summary(seen)}`);
      await killer.end();
    }
    expectWellFormed(seen, apps);
  }, 300_000);

  it("answers in each protocol while PostgreSQL is stopped, and serves again once it is back", async () => {
    cluster.stop();
    const down: Seen[] = [];
    try {
      for (let i = 0; i < 3; i++) down.push(...(await round()));
    } finally {
      cluster.start();
    }
    console.log(`[faults] surfaces while stopped: ${summary(down)}`);
    expectWellFormed(down, apps);
    // Nothing that needs the database succeeded while it was away.
    for (const surface of ["rest", "oauth", "page"] as const)
      expect(
        down.filter((a) => a.surface === surface && a.status !== 503),
        surface,
      ).toEqual([]);
    // Back: every surface answers as usual, on both instances.
    let back: Seen[] = [];
    for (let attempt = 0; attempt < 40; attempt++) {
      back = await round();
      // Back means no surface says unavailable in any form: MCP says it in a 200 tool result too.
      if (back.every((a) => a.status !== 503 && a.code !== "unavailable")) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(back.map((a) => `${a.surface} ${a.status} ${a.code}`).sort()).toEqual(
      [
        ...Array(2).fill("mcp 200 ok"),
        ...Array(2).fill("oauth 401 invalid_client"),
        ...Array(2).fill("page 200 ok"),
        ...Array(2).fill("rest 200 ok"),
      ].sort(),
    );
    // Every charge belongs to a call that succeeded: the balance equals the ledger.
    const handle: DatabaseHandle = await openDatabase({ kind: "postgres", url: cluster.url });
    try {
      const [row] = await queryRows<{ balance: number; ledger: number }>(
        handle.db,
        sql`select credit_balance as balance,
              (select coalesce(sum(amount), 0)::int from credit_ledger where organization_id = ${fixture.id}) as ledger
            from organizations where id = ${fixture.id}`,
      );
      expect(Number(row?.balance)).toBe(Number(row?.ledger));
    } finally {
      await handle.close();
    }
  }, 300_000);
});

function summary(seen: Seen[]): string {
  const counts = new Map<string, number>();
  for (const a of seen) {
    const key = `${a.surface} ${a.status} ${a.code}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => `${n} × ${k}`).join(", ");
}
