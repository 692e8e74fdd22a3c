/**
 * Embeds on a real database: creating one debits the reading's price once for the release it
 * shows (the ledger names `embeds.<reading>`); a "latest" embed is charged once when a new release
 * first shows, however many views ask at once, and keeps the last release paid for when the
 * balance cannot cover the new one; revoking; another organization's embed is not found; the CLI.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { creditLedger, embedCharges } from "@/db/schema";
import { describeError } from "@/server/1-errors/describe";
import { CLIENT_ADDRESS_HEADER } from "@/server/2-http/client-address";
import { loadRelease } from "@/server/3-catalog/releases";
import { chargedReleases, findEmbed } from "@/server/4-api-access/embeds";
import { changeCredits, creditBalance } from "@/server/4-credits/credits";
import { auditPage } from "@/server/4-organizations/audit";
import { createEmbed, embedPrice, embedToShow } from "@/server/7-procedures/embeds";
import { OPERATIONS } from "@/server/7-procedures/operations";
import { answerEmbed } from "@/server/8-embeds/serve";
import { addPerson, organization } from "../helpers/accounts";
import { runOps } from "../helpers/cli";
import { dashboardCallerAs, testDatabase } from "../helpers/database";

const FIXTURES = path.resolve(import.meta.dirname, "../fixtures");
const MARKET = "hand-computed";
const database = testDatabase();
let dir: string;

async function publish(change?: (market: Record<string, unknown>) => void) {
  const market = parse(readFileSync(path.join(FIXTURES, "market.yaml"), "utf8"));
  change?.(market);
  const file = path.join(dir, `m-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, stringify(market));
  const result = await runOps(database, ["catalog", "publish", file, "--notes", "embeds test"]);
  expect(result.code, result.stderr).toBe(0);
}

const debitsOf = (organizationId: string) =>
  database.db
    .select({ amount: creditLedger.amount, operation: creditLedger.operation, requestId: creditLedger.requestId })
    .from(creditLedger)
    .where(and(eq(creditLedger.organizationId, organizationId), eq(creditLedger.kind, "debit")))
    .orderBy(creditLedger.id);

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "mps-embeds-"));
  expect((await runOps(database, ["catalog", "publish", path.join(FIXTURES, "geographies.yaml")])).code).toBe(0);
  await publish();
});

const request = (organizationId: string, extra: Partial<Parameters<typeof createEmbed>[1]> = {}) => ({
  organizationId,
  marketId: MARKET,
  reading: "delta" as const,
  country: "XA",
  release: null,
  view: "map" as const,
  theme: "light" as const,
  allowedOrigins: ["https://reports.example.com"],
  createdByUserId: null,
  ...extra,
});

describe("embeds", () => {
  it("costs the reading's declared price, debited once at creation for the release it shows", async () => {
    expect(embedPrice("delta")).toBe(OPERATIONS.delta.credits);
    expect(embedPrice("servicemax")).toBe(OPERATIONS.servicemax.credits);
    const org = await organization(database.db, "Pinned", { homeCountry: "XA", credits: 100 });
    const embed = await createEmbed(database.db, request(org.id, { release: 1 }));
    expect(await creditBalance(database.db, org.id)).toBe(100 - OPERATIONS.delta.credits);
    expect(await debitsOf(org.id)).toEqual([
      { amount: -OPERATIONS.delta.credits, operation: "embeds.delta", requestId: `${embed.id}:1` },
    ]);
    // Views are free: showing it again and again debits nothing more.
    for (let i = 0; i < 3; i++) await embedToShow(database.db, embed, "http://localhost");
    expect(await debitsOf(org.id)).toHaveLength(1);
    expect(await chargedReleases(database.db, embed.id)).toEqual([1]);
  });

  it("refuses an embed the organization cannot pay for, and keeps nothing of it", async () => {
    const org = await organization(database.db, "Broke", { homeCountry: "XA", credits: 1 });
    const error = await createEmbed(database.db, request(org.id)).catch((e: unknown) => e);
    expect(describeError(error).code).toBe("insufficient_credits");
    // From the operator CLI (no dashboard origin): whom to ask, no Credits page address.
    expect(describeError(error).detail).toContain("Ask an operator of this service for more credits.");
    expect(await creditBalance(database.db, org.id)).toBe(1);
    const caller = await dashboardCallerAs(database.db, org.userId);
    // From the dashboard: the same 402 as every paid call, naming the Credits page.
    const asked = { marketId: MARKET, reading: "delta" as const, country: "XA", view: "map" as const };
    const unpaid = describeError(await caller.embeds.create(asked).catch((e: unknown) => e));
    expect(unpaid).toMatchObject({
      code: "insufficient_credits",
      members: { creditsUrl: "http://dashboard.test/credits" },
    });
    expect(unpaid.detail).toContain("http://dashboard.test/credits");
    expect(await creditBalance(database.db, org.id)).toBe(1);
    expect(await caller.embeds.list()).toEqual([]);
  });

  it("refuses unknown markets, releases and countries", async () => {
    const org = await organization(database.db, "Careless", { homeCountry: "XA", credits: 100 });
    const codes = await Promise.all(
      [
        request(org.id, { marketId: "no-such-market" }),
        request(org.id, { release: 99 }),
        request(org.id, { country: "ZZ" }),
        request(org.id, { allowedOrigins: ["https://x.example/path"] }),
        request(org.id, { allowedOrigins: ["https://*"] }),
        request(org.id, { allowedOrigins: ["https://a.example;sandbox"] }),
      ].map((r) =>
        createEmbed(database.db, r).then(
          () => "created",
          (e: unknown) => describeError(e).code,
        ),
      ),
    );
    expect(codes).toEqual([
      "not_found",
      "not_found",
      "invalid_request",
      "invalid_request",
      "invalid_request",
      "invalid_request",
    ]);
    expect(await creditBalance(database.db, org.id)).toBe(100);
  });

  it("charges a latest embed once when a new release first shows, however many views ask at once", async () => {
    const org = await organization(database.db, "Latest", { homeCountry: "XA", credits: 100 });
    const embed = await createEmbed(database.db, request(org.id, { reading: "servicemax", view: "bars" }));
    const price = OPERATIONS.servicemax.credits;
    const before = await chargedReleases(database.db, embed.id);
    expect(before).toHaveLength(1);
    const first = before[0] as number;
    await publish((m) => {
      const products = m.products as { offerings: { values: Record<string, unknown> }[] }[];
      const offering = products[0]?.offerings[0];
      if (offering) offering.values.bench = 71;
    });
    const shown = await Promise.all(
      Array.from({ length: 8 }, () => embedToShow(database.db, embed, "http://localhost")),
    );
    expect(new Set(shown.map((s) => s.release))).toEqual(new Set([first + 1]));
    expect(shown[0]?.facts.note).toBeUndefined();
    expect(await chargedReleases(database.db, embed.id)).toEqual([first, first + 1]);
    expect((await debitsOf(org.id)).map((d) => d.operation)).toEqual(["embeds.servicemax", "embeds.servicemax"]);
    expect(await creditBalance(database.db, org.id)).toBe(100 - 2 * price);
  });

  it("keeps showing the last release paid for when the balance cannot cover a new one, and says so", async () => {
    const org = await organization(database.db, "Thrifty", { homeCountry: "XA", credits: OPERATIONS.delta.credits });
    const embed = await createEmbed(database.db, request(org.id));
    expect(await creditBalance(database.db, org.id)).toBe(0);
    const paid = (await chargedReleases(database.db, embed.id))[0] as number;
    await publish((m) => {
      const products = m.products as { offerings: { values: Record<string, unknown> }[] }[];
      const offering = products[1]?.offerings[0];
      if (offering) offering.values.bench = 12;
    });
    const shown = await embedToShow(database.db, embed, "http://localhost");
    expect(shown.release).toBe(paid);
    expect(shown.facts.note).toContain(`shows release ${paid}, the last one paid for`);
    expect(await chargedReleases(database.db, embed.id)).toEqual([paid]);
    // Once paid for, the next view shows the new release and charges it once.
    await changeCredits(database.db, { organizationId: org.id, kind: "grant", amount: 10 });
    const now = await embedToShow(database.db, embed, "http://localhost");
    expect(now.release).toBe(paid + 1);
    expect(now.facts.note).toBeUndefined();
    expect(await creditBalance(database.db, org.id)).toBe(10 - OPERATIONS.delta.credits);
  });

  it("is created, listed and revoked from the dashboard; another organization's is not found", async () => {
    const mine = await organization(database.db, "Mine", { homeCountry: "XA", credits: 100 });
    const theirs = await organization(database.db, "Theirs", { homeCountry: "XA", credits: 100 });
    const me = await dashboardCallerAs(database.db, mine.userId);
    const them = await dashboardCallerAs(database.db, theirs.userId);
    const created = await me.embeds.create({
      marketId: MARKET,
      reading: "delta",
      country: "XB",
      release: 1,
      view: "bars",
      allowedOrigins: ["https://a.example.com/", "https://a.example.com"],
    });
    // The URL to paste is at the service's public origin, never the host the page was reached on.
    expect(created.url).toBe(`http://dashboard.test/embed/${created.id}`);
    const listed = await me.embeds.list();
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      id: created.id,
      reading: "delta",
      country: "XB",
      release: 1,
      view: "bars",
      allowedOrigins: ["https://a.example.com"],
      views: 0,
      chargedReleases: [1],
      revokedAt: null,
    });
    // Names, not ids: what it shows in words, for the panel and /embeds alike.
    const market = (await loadRelease(database.db, MARKET, 1))?.data;
    const country = market?.geographies.find((g) => g.country === "XB")?.name;
    expect(country).toBeTruthy();
    const summary = `Delta of ${market?.name} under ${country} (XB), release 1 (pinned)`;
    expect(created.summary).toBe(summary);
    expect(created.anySite).toBe(false);
    expect(listed[0]).toMatchObject({ marketName: market?.name, readingTitle: "Delta", countryName: country, summary });
    expect(await them.embeds.list()).toEqual([]);
    const refused = await them.embeds.revoke({ embedId: created.id }).catch((e: unknown) => describeError(e).code);
    expect(refused).toBe("not_found");
    expect((await findEmbed(database.db, created.id))?.revokedAt).toBeNull();
    expect(await me.embeds.revoke({ embedId: created.id })).toEqual({ revoked: created.id });
    expect((await me.embeds.list())[0]?.revokedAt).not.toBeNull();
    // Revoked once: a second revoke finds no active embed.
    expect(await me.embeds.revoke({ embedId: created.id }).catch((e: unknown) => describeError(e).code)).toBe(
      "not_found",
    );
  });

  it("is made by owners, admins and members, never billing, and each change is in the audit trail", async () => {
    const org = await organization(database.db, "Audited embeds", { homeCountry: "XA", credits: 100 });
    const { id: billing } = await addPerson(database.db, { organizationId: org.id, role: "billing" });
    const asBilling = await dashboardCallerAs(database.db, billing);
    const refused = await asBilling.embeds
      .create({ marketId: MARKET, reading: "capaindex" })
      .catch((e: unknown) => describeError(e).code);
    expect(refused).toBe("forbidden");
    // Nor may billing list or revoke the organization's embeds.
    const made = await createEmbed(database.db, { ...request(org.id), reading: "capaindex", country: null });
    expect(await asBilling.embeds.list().catch((e: unknown) => describeError(e).code)).toBe("forbidden");
    expect(await asBilling.embeds.revoke({ embedId: made.id }).catch((e: unknown) => describeError(e).code)).toBe(
      "forbidden",
    );
    expect((await findEmbed(database.db, made.id))?.revokedAt).toBeNull();
    const owner = await dashboardCallerAs(database.db, org.userId, { "user-agent": "EmbedAudit/1.0" });
    const created = await owner.embeds.create({ marketId: MARKET, reading: "capaindex", release: 1 });
    await owner.embeds.revoke({ embedId: created.id });
    const trail = (await auditPage(database.db, org.id, { limit: 10 })).events.reverse();
    expect(trail.map((e) => [e.action, e.targetId, e.actorUserId, e.userAgent])).toEqual([
      ["embed.create", created.id, org.userId, "EmbedAudit/1.0"],
      ["embed.revoke", created.id, org.userId, "EmbedAudit/1.0"],
    ]);
    expect(trail[0]?.details).toEqual({ marketId: MARKET, reading: "capaindex", country: null, release: 1 });
  });

  it("is created, listed and revoked by the operator CLI, which prints the URL last", async () => {
    const org = await organization(database.db, "Ops", { homeCountry: "XA", credits: 100 });
    const created = await runOps(database, [
      "embed",
      "create",
      "--org",
      org.id,
      "--market",
      MARKET,
      "--reading",
      "delta",
      "--country",
      "XA",
      "--release",
      "1",
      "--view",
      "bars",
    ]);
    expect(created.code, created.stderr).toBe(0);
    const url = created.stdout.trim().split("\n").at(-1) as string;
    expect(url).toMatch(/^http:\/\/localhost:\d+\/embed\/emb_[0-9a-f]{24}$/);
    const id = url.split("/").at(-1) as string;
    const charges = await database.db.select().from(embedCharges).where(eq(embedCharges.embedId, id));
    expect(charges.map((c) => [c.release, c.credits])).toEqual([[1, OPERATIONS.delta.credits]]);
    const list = await runOps(database, ["embed", "list", "--org", org.id]);
    expect(list.stdout).toContain(id);
    expect(list.stdout).toContain("active");
    expect((await runOps(database, ["embed", "revoke", id])).code).toBe(0);
    expect((await runOps(database, ["embed", "list", "--org", org.id])).stdout).toContain("revoked");
    expect((await runOps(database, ["embed", "revoke", id])).code).toBe(1);
    const bad = await runOps(database, ["embed", "create", "--org", org.id, "--market", MARKET, "--reading", "x"]);
    expect(bad.code).toBe(2);
  });
});

describe("a latest embed whose country a new release leaves out", () => {
  it("is not charged for that release, keeps showing the last one paid for, and says why", async () => {
    const org = await organization(database.db, "Dropped", { homeCountry: "XA", credits: 100 });
    const embed = await createEmbed(database.db, request(org.id, { country: "XD" }));
    const paid = await chargedReleases(database.db, embed.id);
    const balance = await creditBalance(database.db, org.id);
    const geographies = parse(readFileSync(path.join(FIXTURES, "geographies.yaml"), "utf8"));
    const withoutXd = path.join(dir, "geographies-without-xd.yaml");
    writeFileSync(
      withoutXd,
      stringify({
        ...geographies,
        geographies: geographies.geographies.filter((g: { country: string }) => g.country !== "XD"),
      }),
    );
    try {
      expect((await runOps(database, ["catalog", "publish", withoutXd])).code).toBe(0);
      await publish();
      const shown = await Promise.all(
        Array.from({ length: 4 }, () => embedToShow(database.db, embed, "http://localhost")),
      );
      expect(new Set(shown.map((s) => s.release))).toEqual(new Set(paid));
      expect(shown[0]?.facts.note).toMatch(/is published without XD; this chart shows release \d+/);
      expect(shown[0]?.facts.country?.code).toBe("XD");
      expect(await chargedReleases(database.db, embed.id)).toEqual(paid);
      expect(await creditBalance(database.db, org.id)).toBe(balance);
    } finally {
      expect((await runOps(database, ["catalog", "publish", path.join(FIXTURES, "geographies.yaml")])).code).toBe(0);
      await publish();
    }
  });
});

describe("views of an embed", () => {
  it("are refused to one network past its limit without using up the embed's: another network is served", async () => {
    const saved = { embed: process.env.EMBED_VIEWS_PER_EMBED, network: process.env.EMBED_VIEWS_PER_NETWORK };
    process.env.EMBED_VIEWS_PER_EMBED = "6";
    process.env.EMBED_VIEWS_PER_NETWORK = "3";
    try {
      const org = await organization(database.db, "Viewed", { homeCountry: "XA", credits: 100 });
      const embed = await createEmbed(database.db, request(org.id));
      const view = (network: string) =>
        answerEmbed(
          database.db,
          { id: embed.id, format: "svg" },
          new Headers({ [CLIENT_ADDRESS_HEADER]: network }),
          "http://localhost",
        ).then((answer) => answer.status);
      const flood = [];
      for (let i = 0; i < 20; i++) flood.push(await view("198.51.100.7"));
      expect(flood.filter((status) => status === 200)).toHaveLength(3);
      expect(flood.filter((status) => status === 429)).toHaveLength(17);
      // The flooding network spent 3 of the embed's 6: three other networks are each served.
      expect([await view("198.51.100.8"), await view("198.51.100.9"), await view("198.51.100.10")]).toEqual([
        200, 200, 200,
      ]);
      // Now the embed's own limit is reached, whoever asks.
      expect(await view("198.51.100.11")).toBe(429);
    } finally {
      for (const [name, value] of [
        ["EMBED_VIEWS_PER_EMBED", saved.embed],
        ["EMBED_VIEWS_PER_NETWORK", saved.network],
      ] as const)
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
    }
  });
});
