/**
 * Embeds on two instances of one service (one private PostgreSQL): an embed revoked through one
 * instance answers 410 on both at once, nothing of it cached per instance; a "latest" embed whose
 * market gets a new release, viewed on both instances at once, pays for that release once.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { type DatabaseHandle, openDatabase } from "@/db/client";
import { creditLedger, embedCharges } from "@/db/schema";
import { DEMO_FOLDER } from "@/server/5-startup/seed";
import { createEmbed } from "@/server/7-procedures/embeds";
import { OPERATIONS } from "@/server/7-procedures/operations";
import { demoCatalogueWithOrganization, type FixtureOrganization } from "../helpers/accounts";
import { runOps } from "../helpers/cli";
import { dashboardCall } from "../helpers/dashboard";
import { createPgCluster, type PgCluster } from "../helpers/pg-cluster";
import { type RunningApp, startInstances } from "../helpers/server";

describe("embeds on two instances", () => {
  let cluster: PgCluster;
  let handle: DatabaseHandle;
  let apps: RunningApp[];
  let org: FixtureOrganization;

  beforeAll(async () => {
    cluster = await createPgCluster();
    handle = await openDatabase({ kind: "postgres", url: cluster.url });
    org = await demoCatalogueWithOrganization(handle, "Embedder", 1_000);
    apps = await startInstances(2, {
      DATABASE_URL: cluster.url,
      REDIS_URL: "",
      THROTTLE_KEY_PREFIX: `mps:embeds:${cluster.port}:${randomUUID()}`,
    });
  }, 400_000);

  afterAll(async () => {
    await Promise.all((apps ?? []).map((app) => app.stop()));
    await handle?.close();
    cluster?.destroy();
  });

  const url = (i: number) => (apps[i] as RunningApp).url;

  it("a revoked embed answers 410 on both instances at once", async () => {
    const embed = await createEmbed(handle.db, {
      organizationId: org.id,
      marketId: "foundation-model-apis",
      reading: "delta",
      country: "FR",
      release: 1,
      view: "map",
      theme: "light",
      allowedOrigins: [],
      createdByUserId: null,
    });
    for (const i of [0, 1]) expect((await fetch(`${url(i)}/embed/${embed.id}`)).status).toBe(200);
    const revoked = await dashboardCall(
      url(0),
      org.session,
      "embeds.revoke",
      { embedId: embed.id },
      { mutation: true },
    );
    expect(revoked.status).toBe(200);
    for (const i of [1, 0]) {
      expect((await fetch(`${url(i)}/embed/${embed.id}`)).status).toBe(410);
      expect((await fetch(`${url(i)}/embed/${embed.id}.svg`)).status).toBe(410);
    }
  });

  it("a latest embed pays for a new release once, viewed on both instances at once", async () => {
    const marketId = "managed-kubernetes";
    const embed = await createEmbed(handle.db, {
      organizationId: org.id,
      marketId,
      reading: "servicemax",
      country: "FR",
      release: null,
      view: "bars",
      theme: "light",
      allowedOrigins: [],
      createdByUserId: null,
    });
    const market = parse(readFileSync(path.join(DEMO_FOLDER, "markets", `${marketId}.yaml`), "utf8"));
    market.products[0].offerings[0].values["upgrade-lag"] += 5;
    const file = path.join(mkdtempSync(path.join(tmpdir(), "mps-embeds-")), `${marketId}.yaml`);
    writeFileSync(file, stringify(market));
    const published = await runOps(handle, ["catalog", "publish", file, "--notes", "A new release for embeds."]);
    expect(published.code, published.stderr).toBe(0);
    // Both instances hear of the release through the change feed (NOTIFY) within moments; then
    // twenty views at once, half on each.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => fetch(`${url(i % 2)}/embed/${embed.id}.svg`).then((r) => r.text())),
    );
    expect(answers.filter((svg) => svg.includes("release 2 of"))).toHaveLength(20);
    const charges = await handle.db.select().from(embedCharges).where(eq(embedCharges.embedId, embed.id));
    expect(charges.map((c) => c.release).sort()).toEqual([1, 2]);
    const debits = await handle.db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.organizationId, org.id), eq(creditLedger.operation, "embeds.servicemax")));
    expect(debits.map((d) => d.amount)).toEqual([-OPERATIONS.servicemax.credits, -OPERATIONS.servicemax.credits]);
  });
});
