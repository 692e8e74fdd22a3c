/**
 * OWASP API6:2023 Unrestricted Access to Sensitive Business Flows, tried against the running app:
 * credits are money, so creating organizations must not mint them (the starting grant once per
 * person, a bounded number of organizations, even when created all at once); sign-in mail, which
 * reaches other people's inboxes, is throttled per address and per client network (an IPv6 /64
 * counted as one client).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { dashboardCall } from "../../helpers/dashboard";
import { askForSignInLink, hostileRequest } from "../../helpers/hostile";
import { type OwnApp, startOwnApp } from "../../helpers/own-app";

const base = inject("appUrl");
const { people } = inject("accounts");

const create = (session: string, name: string) =>
  dashboardCall(base, session, "organizations.create", { name, homeCountry: "DE" }, { mutation: true });

describe("API6: organizations are no credit tap", () => {
  it("grants the starting credits with a person's first organization only, and refuses the sixth", async () => {
    const balances: number[] = [];
    for (let i = 1; i <= 5; i++) {
      const answer = await create(people.tapper, `Tap ${i}`);
      expect(answer.status, `organization ${i}`).toBe(200);
      balances.push((answer.data as { creditBalance: number }).creditBalance);
    }
    expect(balances).toEqual([1000, 0, 0, 0, 0]);
    const sixth = await create(people.tapper, "Tap 6");
    expect(sixth.status).toBe(403);
    expect(sixth.problem?.code).toBe("quota_exceeded");
    const listed = (await dashboardCall(base, people.tapper, "organizations.list")).data as {
      organizations: { creditBalance: number }[];
      next: { credits: number; remaining: number };
    };
    expect(listed.organizations).toHaveLength(5);
    expect(listed.organizations.reduce((sum, o) => sum + o.creditBalance, 0)).toBe(1000);
    expect(listed.next).toEqual({ credits: 0, remaining: 0 });
  });

  it("grants them once when a person creates organizations all at once", async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => create(people.racer, `Race ${i}`)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const granted = answers.map((a) => (a.data as { creditBalance: number }).creditBalance);
    expect(granted.filter((b) => b === 1000)).toHaveLength(1);
    expect(granted.reduce((sum, b) => sum + b, 0)).toBe(1000);
  });
});

describe("API6: sign-in mail, behind a proxy the operator trusts", () => {
  let app: OwnApp<null>;
  beforeAll(async () => {
    app = await startOwnApp({ TRUST_PROXY: "1" }, async () => null);
  }, 300_000);
  afterAll(() => app?.close());

  /** Asks for a link for `email` from client address `from` (the proxy's X-Forwarded-For). */
  const ask = (email: string, from: string) => askForSignInLink(app.url, email, { "X-Forwarded-For": from });
  const mailsTo = async (email: string) => {
    const html = await (await fetch(`${app.url}/dev/outbox`)).text();
    return html.split(`data-recipient="${email}"`).length - 1;
  };

  it("believes the proxy's X-Forwarded-Proto (HSTS) and host, the host only when allowed", async () => {
    const port = new URL(app.url).port;
    const secure = await hostileRequest(app.url, "/", {
      headers: { "X-Forwarded-Proto": "https", "X-Forwarded-Host": `localhost:${port}` },
    });
    expect(secure.headers["strict-transport-security"]).toBe("max-age=63072000; includeSubDomains");
    const forged = await hostileRequest(app.url, "/v1/openapi.json", {
      headers: { "X-Forwarded-Proto": "https", "X-Forwarded-Host": "evil.example" },
    });
    expect(JSON.parse(forged.body).servers[0].url).toBe(`http://localhost:${port}/v1`);
  });

  it("sends one address at most 5 links in 10 minutes, however many clients ask", async () => {
    for (let i = 1; i <= 7; i++) await ask("target@example.com", `198.51.100.${i}`);
    expect(await mailsTo("target@example.com")).toBe(5);
  });

  it("counts an IPv6 /64 as one client: 50 links, then none from any of its addresses", async () => {
    for (let i = 1; i <= 50; i++) await ask(`person-${i}@example.com`, `2001:db8:aa:bb::${i.toString(16)}`);
    await ask("one-more@example.com", "2001:db8:aa:bb:ffff:ffff:ffff:fffe");
    expect(await mailsTo("person-50@example.com")).toBe(1);
    expect(await mailsTo("one-more@example.com")).toBe(0);
    await ask("elsewhere@example.com", "2001:db8:aa:cc::1");
    expect(await mailsTo("elsewhere@example.com")).toBe(1);
  }, 120_000);
});
