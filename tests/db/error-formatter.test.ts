/**
 * What a dashboard call answers when the service fails inside a procedure: the database throws
 * what drizzle throws (the failed query's SQL and parameters) and the answer, through tRPC's own
 * fetch handler and the app's router, carries none of it — only `internal_error`, the generic
 * words and the request id that the log line names too — and no stack frame, whatever the mode.
 */
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { describe, expect, it } from "vitest";
import type { Database } from "@/db/client";
import { createApiContext } from "@/server/7-procedures/context";
import { appRouter } from "@/server/7-routers/root";

const FAILED_QUERY =
  'Failed query: select "id" from "embeds" where "organization_id" = $1\nparams: org_secret: syntax error at or near "from"';

/** A database whose every query fails the way drizzle reports it. */
const failingDatabase = new Proxy({} as Database, {
  get: () => () => {
    throw new Error(FAILED_QUERY);
  },
});

async function dashboardAnswer(path: string) {
  const response = await fetchRequestHandler({
    endpoint: "/api/trpc",
    router: appRouter,
    req: new Request(`http://dashboard.test/api/trpc/${path}`),
    createContext: () =>
      createApiContext({
        db: failingDatabase,
        headers: new Headers(),
        requestId: "req-formatter-1",
        origin: "http://dashboard.test",
        authenticate: async () => ({
          via: "session",
          credentialId: null,
          userId: "usr_formatter",
          organization: { id: "org_formatter", role: "owner", homeCountry: "DE", creditBalance: 0, rateLimit: null },
          scopes: ["Market.Read.All"],
          metered: false,
        }),
      }),
  });
  return { status: response.status, body: await response.text() };
}

describe("an internal error in a dashboard procedure", () => {
  it("answers internal_error with the request id, never the SQL, its parameters or a stack", async () => {
    const answer = await dashboardAnswer("embeds.list");
    expect(answer.status).toBe(500);
    expect(answer.body).not.toMatch(/select|params|syntax error|org_secret|\bat .*:\d+:\d+|\.ts:\d+/i);
    const { error } = JSON.parse(answer.body) as {
      error: { message: string; data: Record<string, unknown>; problem: Record<string, unknown> };
    };
    expect(error.problem).toEqual({
      code: "internal_error",
      detail: "The service failed unexpectedly. (request req-formatter-1)",
      requestId: "req-formatter-1",
    });
    expect(error.message).toBe(error.problem.detail);
    expect(error.data.stack).toBeUndefined();
  });
});
