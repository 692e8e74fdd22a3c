/**
 * An organization's identity provider in storage and through `ops org idp`: the issuer and the
 * inline key set are checked (https, public keys only), the secret is sealed and never shown, a
 * domain counts only once its TXT record (served by the tests' own DNS server, through
 * DNS_SERVERS) proves the token, and neither a verified domain nor an issuer can be claimed by a
 * second organization. Every change is in the audit trail.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { identityLinks, identityProviders, memberships, users } from "@/db/schema";
import {
  claimDomain,
  identityProviderByIssuer,
  identityProviderClientSecret,
  identityProviderForEmail,
  identityProviderOf,
  linkIdentity,
  markDomainVerified,
  memberBySubject,
  proveDomain,
  spendAssertion,
} from "@/server/4-identity/identity-providers";
import { auditPage } from "@/server/4-organizations/audit";
import { organization } from "../helpers/accounts";
import { runOps } from "../helpers/cli";
import { dashboardCallerAs, testDatabase, testDatabaseKind } from "../helpers/database";
import { startDnsServer, type TestDnsServer } from "../helpers/dns-server";

const database = testDatabase();
let dns: TestDnsServer;
let dir: string;
const savedDnsServers = process.env.DNS_SERVERS;

beforeAll(async () => {
  dns = await startDnsServer({ TXT: {} });
  process.env.DNS_SERVERS = dns.address;
  dir = mkdtempSync(path.join(tmpdir(), "mps-idp-"));
  const geographies = path.resolve(import.meta.dirname, "../fixtures/geographies.yaml");
  expect((await runOps(database, ["catalog", "publish", geographies])).code).toBe(0);
});
afterAll(async () => {
  if (savedDnsServers === undefined) delete process.env.DNS_SERVERS;
  else process.env.DNS_SERVERS = savedDnsServers;
  await dns.close();
});

const keyFile = (name: string, value: unknown) => {
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify(value));
  return file;
};
/** `ops org idp set` for an organization: its issuer and one domain. */
const setIdp = (organizationId: string, issuer: string, domain: string) =>
  runOps(database, ["org", "idp", "set", "--org", organizationId, "--issuer", issuer, "--domain", domain]);

const PUBLIC_KEY = {
  kty: "EC",
  crv: "P-256",
  x: "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
  y: "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0",
};

describe("ops org idp", () => {
  it("sets the provider, claims the domain, verifies it through DNS, and shows no secret", async () => {
    const acme = await organization(database.db, "Acme", { homeCountry: "XC", credits: 0 });
    const set = await runOps(database, [
      "org",
      "idp",
      "set",
      "--org",
      acme.id,
      "--issuer",
      "https://login.acme.example/",
      "--domain",
      "Acme.Example",
      "--client-id",
      "dashboard",
      "--client-secret",
      "s3cret-value",
      "--jwks",
      keyFile("k.json", { keys: [PUBLIC_KEY] }),
      "--default-role",
      "admin",
    ]);
    expect(set.code, set.stderr).toBe(0);
    const record = set.stdout.match(/TXT (\S+) "([^"]+)"/);
    expect(record?.[1]).toBe("_market-positioning.acme.example");
    // Unverified, the domain speaks for nobody.
    expect(await identityProviderForEmail(database.db, "ann@acme.example")).toBeNull();
    const early = await runOps(database, ["org", "idp", "verify", "--org", acme.id, "--domain", "acme.example"]);
    expect(early.code).toBe(1);
    expect(early.stderr).toMatch(/TXT record/);

    dns.records.TXT = { "_market-positioning.acme.example": ["v=spf1 -all", record?.[2] as string] };
    const verified = await runOps(database, ["org", "idp", "verify", "--org", acme.id, "--domain", "acme.example"]);
    expect(verified.code, verified.stderr).toBe(0);
    expect(dns.asked.some((q) => q.includes("_market-positioning.acme.example"))).toBe(true);

    const idp = await identityProviderForEmail(database.db, "Ann@ACME.example");
    // The issuer as typed, its trailing slash too (as Auth0 and Azure AD v1 spell theirs): compared exactly.
    expect(idp).toMatchObject({ organizationId: acme.id, issuer: "https://login.acme.example/", defaultRole: "admin" });
    expect(await identityProviderByIssuer(database.db, "https://login.acme.example")).toBeNull();
    expect(await identityProviderByIssuer(database.db, "https://login.acme.example/")).toMatchObject({
      organizationId: acme.id,
    });
    expect(await identityProviderClientSecret(database.db, acme.id)).toBe("s3cret-value");
    const [row] = await database.db
      .select()
      .from(identityProviders)
      .where(eq(identityProviders.organizationId, acme.id));
    expect(row?.clientSecretSealed).not.toContain("s3cret-value");

    const shown = await runOps(database, ["org", "idp", "show", "--org", acme.id]);
    expect(shown.stdout).toMatch(/acme\.example\s+verified/);
    expect(shown.stdout).not.toContain("s3cret-value");
    const actions = (await auditPage(database.db, acme.id, { limit: 10 })).events.map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(["identity_provider.set", "domain.verify"]));
  });

  it("refuses a second organization the same issuer or a domain another has verified", async () => {
    const rival = await organization(database.db, "Rival", { homeCountry: "XC", credits: 0 });
    const setRival = (issuer: string, domain: string) => setIdp(rival.id, issuer, domain);
    // The same IdP spelt without its trailing slash is still the same IdP: refused.
    const sameIssuer = await setRival("https://login.acme.example", "rival.example");
    expect(sameIssuer.code).toBe(1);
    expect(sameIssuer.stderr).toMatch(/another organization/);
    const doubled = await setRival("https://login.acme.example//", "rival.example");
    expect(doubled.code).toBe(2);
    expect(doubled.stderr).toMatch(/empty segment/);
    const sameDomain = await setRival("https://rival.example", "acme.example");
    expect(sameDomain.code).toBe(1);
    expect(sameDomain.stderr).toMatch(/verified by another organization/);
    expect(await identityProviderOf(database.db, rival.id)).toBeNull();
  });

  it("refuses every other spelling of another organization's issuer, and keeps each issuer as typed", async () => {
    const mapped = await organization(database.db, "By address", { homeCountry: "XC", credits: 0 });
    expect((await setIdp(mapped.id, "https://8.8.8.8/oidc", "by-address.example")).code).toBe(0);
    const rival = await organization(database.db, "Spellings", { homeCountry: "XC", credits: 0 });
    for (const spelling of [
      "https://login.acme.example/?",
      "https://login.acme.example/#",
      "https://login.acme.example?",
      "https://LOGIN.Acme.example/",
      "HTTPS://login.acme.example:443",
      "https://[::ffff:8.8.8.8]/oidc",
      "https://[0:0:0:0:0:ffff:808:808]/oidc/",
      "https://8.8.8.8:443/oidc/?#",
    ]) {
      const refused = await setIdp(rival.id, spelling, "spellings.example");
      expect(`${spelling}: ${refused.code} ${refused.stderr.trim()}`).toMatch(/: 1 .*another organization/);
    }
    expect(await identityProviderOf(database.db, rival.id)).toBeNull();
    // Another path of the same host is another IdP (Azure AD's tenants, Auth0's are hosts).
    expect((await setIdp(rival.id, "https://login.acme.example/tenant-2/", "spellings.example")).code).toBe(0);
    // Kept as typed, trailing slash included: tokens are matched against it exactly.
    expect(await identityProviderByIssuer(database.db, "https://login.acme.example/tenant-2/")).toMatchObject({
      organizationId: rival.id,
    });
    expect(await identityProviderByIssuer(database.db, "https://login.acme.example/tenant-2")).toBeNull();
  });

  it("refuses what an issuer, a domain, a role or a key set may not be", async () => {
    const org = await organization(database.db, "Strict", { homeCountry: "XC", credits: 0 });
    const base = ["org", "idp", "set", "--org", org.id, "--domain", "strict.example"];
    for (const [extra, problem] of [
      [["--issuer", "http://login.strict.example"], /https/],
      [["--issuer", "https://127.0.0.1/"], /private|loopback/],
      [["--issuer", "https://u:p@login.strict.example"], /user name/],
      [["--issuer", "https://login.strict.example/?tenant=1"], /query/],
      [["--issuer", "https://login.strict.example", "--default-role", "owner"], /default-role/],
      [["--issuer", "https://login.strict.example", "--client-id", "only-id"], /go together/],
      [
        [
          "--issuer",
          "https://login.strict.example",
          "--jwks",
          keyFile("private.json", { keys: [{ ...PUBLIC_KEY, d: "secret" }] }),
        ],
        /private key/,
      ],
      [["--issuer", "https://login.strict.example", "--jwks", keyFile("empty.json", { keys: [] })], /at least one key/],
    ] as const) {
      const result = await runOps(database, [...base, ...extra]);
      expect(result.code, extra.join(" ")).toBe(2);
      expect(result.stderr).toMatch(problem);
    }
    const badDomain = await setIdp(org.id, "https://a.example", "<script>.example");
    expect(badDomain.code).toBe(2);
    expect(await identityProviderOf(database.db, org.id)).toBeNull();
  });

  it("removes the provider and its domains", async () => {
    const org = await organization(database.db, "Leaving", { homeCountry: "XC", credits: 0 });
    expect((await setIdp(org.id, "https://leaving.example", "leaving.example")).code).toBe(0);
    const removed = await runOps(database, ["org", "idp", "remove", "--org", org.id]);
    expect(removed.code).toBe(0);
    expect(await identityProviderOf(database.db, org.id)).toBeNull();
    expect((await runOps(database, ["org", "idp", "show", "--org", org.id])).stdout).toMatch(/no identity provider/);
  });
});

describe("the dashboard's Verify", () => {
  /** An organization whose owner set an IdP for `<name>.example` on its page. */
  async function ownerWithProvider(name: string) {
    const org = await organization(database.db, name, { homeCountry: "XC", credits: 0 });
    const owner = await dashboardCallerAs(database.db, org.userId);
    const host = `${name.toLowerCase()}.example`;
    await owner.identityProvider.set({
      issuer: `https://login.${host}`,
      clientId: null,
      clientSecret: null,
      domains: [host],
      defaultRole: "member",
      requireSso: false,
    });
    return { org, owner };
  }

  it("looks the TXT record up before its transaction: a slow DNS server holds no database connection", async () => {
    const { org: zeta, owner } = await ownerWithProvider("Zeta");
    const claim = (await owner.identityProvider.show()).provider?.domains[0];
    dns.records.TXT = { [claim?.recordName ?? ""]: [claim?.recordValue ?? ""] };
    dns.pause();
    let settled = false;
    const verifying = owner.identityProvider.verify({ domain: "zeta.example" }).finally(() => {
      settled = true;
    });
    try {
      await vi.waitFor(() => expect(dns.asked).toContain("TXT _market-positioning.zeta.example"), { timeout: 1500 });
      // While DNS has not answered: no transaction is open (on PGlite, the one connection is free)…
      if (testDatabaseKind === "postgres") {
        const rows = await database.db.execute(
          sql`select count(*)::int as open from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`,
        );
        expect((rows as unknown as { open: number }[])[0]?.open).toBe(0); // postgres.js: the rows
      }
      await database.db.transaction(async (tx) => {
        await tx.update(users).set({ name: "Zeta owner" }).where(eq(users.id, zeta.userId));
      });
      expect(settled).toBe(false);
    } finally {
      dns.resume();
    }
    expect(await verifying).toMatchObject({ domain: "zeta.example", verifiedAt: expect.any(Date) });
    const actions = (await auditPage(database.db, zeta.id, { limit: 10 })).events.map((e) => e.action);
    expect(actions.filter((action) => action === "domain.verify")).toHaveLength(1);
  });

  it("refuses a proof of a claim made again since its record was read", async () => {
    const { org: eta } = await ownerWithProvider("Eta");
    const first = await claimDomain(database.db, eta.id, "eta.example");
    const proof = await proveDomain(database.db, eta.id, "eta.example", async () => [first.recordValue]);
    expect(proof.proved).toBe(true);
    await claimDomain(database.db, eta.id, "eta.example"); // a new token: the old record proves nothing now
    expect(await markDomainVerified(database.db, eta.id, proof)).toMatchObject({
      verified: false,
      reason: expect.stringMatching(/claimed again or released/),
    });
    expect((await identityProviderOf(database.db, eta.id))?.domains[0]?.verifiedAt ?? null).toBeNull();
  });
});

describe("identity links and assertion replays", () => {
  it("maps a subject to a member only while they belong", async () => {
    const org = await organization(database.db, "Linked", { homeCountry: "XC", credits: 0 });
    await linkIdentity(database.db, {
      organizationId: org.id,
      subject: "idp|ann",
      userId: org.userId,
      refreshToken: "rt-1",
    });
    expect(await memberBySubject(database.db, org.id, "idp|ann")).toMatchObject({ userId: org.userId, role: "owner" });
    const other = await organization(database.db, "Other", { homeCountry: "XC", credits: 0 });
    expect(await memberBySubject(database.db, other.id, "idp|ann")).toBeNull();
    const [link] = await database.db.select().from(identityLinks).where(eq(identityLinks.organizationId, org.id));
    expect(link?.refreshTokenSealed).not.toContain("rt-1");
    await database.db.delete(memberships).where(eq(memberships.organizationId, org.id));
    expect(await memberBySubject(database.db, org.id, "idp|ann")).toBeNull();
  });

  it("spends a jti once, however many ask at once", async () => {
    const later = new Date(Date.now() + 60_000);
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, () => spendAssertion(database.db, "https://login.acme.example", "jti-1", later)),
    );
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    expect(await spendAssertion(database.db, "https://other.example", "jti-1", later)).toBe(true);
  });
});

describe("ops org idp link|unlink", () => {
  it("links a member's subject for ID-JAGs, refuses non-members and bad subjects, and unlinks", async () => {
    const org = await organization(database.db, "Linker", { homeCountry: "XC", credits: 0 });
    const [owner] = await database.db.select({ email: users.email }).from(users).where(eq(users.id, org.userId));
    const email = owner?.email as string;
    const noIdp = await runOps(database, ["org", "idp", "link", "--org", org.id, "--email", email, "--subject", "s-1"]);
    expect(noIdp.code).toBe(1);
    expect(noIdp.stderr).toMatch(/no identity provider/);
    expect((await setIdp(org.id, "https://linker.example", "linker.example")).code).toBe(0);

    const linked = await runOps(database, [
      "org",
      "idp",
      "link",
      "--org",
      org.id,
      "--email",
      email,
      "--subject",
      "s-1",
    ]);
    expect(linked.code, linked.stderr).toBe(0);
    expect(await memberBySubject(database.db, org.id, "s-1")).toMatchObject({ userId: org.userId });

    const stranger = await organization(database.db, "Stranger", { homeCountry: "XC", credits: 0 });
    const [other] = await database.db.select({ email: users.email }).from(users).where(eq(users.id, stranger.userId));
    const notMember = await runOps(database, [
      "org",
      "idp",
      "link",
      "--org",
      org.id,
      "--email",
      other?.email as string,
      "--subject",
      "s-2",
    ]);
    expect(notMember.code).toBe(1);
    expect(notMember.stderr).toMatch(/not a member/);
    expect(await memberBySubject(database.db, org.id, "s-2")).toBeNull();
    const hostile = await runOps(database, [
      "org",
      "idp",
      "link",
      "--org",
      org.id,
      "--email",
      email,
      "--subject",
      "evil\r\nsubject",
    ]);
    expect(hostile.code).toBe(2);

    const actions = (await auditPage(database.db, org.id, { limit: 10 })).events.map((e) => e.action);
    expect(actions).toContain("identity.link");
    const unlinked = await runOps(database, ["org", "idp", "unlink", "--org", org.id, "--email", email]);
    expect(unlinked.code).toBe(0);
    expect(await memberBySubject(database.db, org.id, "s-1")).toBeNull();
  });
});
