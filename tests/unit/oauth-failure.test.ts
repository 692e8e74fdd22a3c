/** How the OAuth endpoints answer a failure: OAuth's own error format, 503 for a database fault. */
import { afterEach, describe, expect, it } from "vitest";
import { noteDatabaseFault } from "@/db/faults";
import { oauthFailure } from "@/server/8-oauth/failure";

const body = async (response: Response) => (await response.json()) as { error: string };

describe("an OAuth endpoint's failure", () => {
  afterEach(() => noteDatabaseFault(Date.now() - 60_000));

  it("is 503 temporarily_unavailable with Retry-After when the database cannot be reached", async () => {
    noteDatabaseFault(Date.now() - 60_000);
    const response = oauthFailure(Object.assign(new Error("gone"), { code: "CONNECTION_CLOSED" }));
    expect(response.status).toBe(503);
    expect(await body(response)).toMatchObject({ error: "temporarily_unavailable" });
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("is 500 server_error when nothing says the database is at fault", async () => {
    noteDatabaseFault(Date.now() - 60_000);
    const response = oauthFailure(new TypeError("fetch failed"));
    expect(response.status).toBe(500);
    expect(await body(response)).toMatchObject({ error: "server_error" });
  });

  it("is 503 for any failure while the database is known to be faulting", async () => {
    noteDatabaseFault();
    const response = oauthFailure(new TypeError("fetch failed"));
    expect(response.status).toBe(503);
    expect(await body(response)).toMatchObject({ error: "temporarily_unavailable" });
  });
});
