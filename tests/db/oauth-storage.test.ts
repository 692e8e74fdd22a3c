/**
 * oidc-provider's storage on a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL): the
 * Adapter contract it relies on, and signing keys made once and shared.
 */

import { CompactSign, compactVerify, importJWK } from "jose";
import { describe, expect, it } from "vitest";
import { DatabaseAdapter, purgeExpiredOAuthRecords } from "@/server/4-api-access/oauth-records";
import { publicJwk, signingKeys } from "@/server/6-auth/signing-keys";
import { testDatabase } from "../helpers/database";

const database = testDatabase();

const adapter = (model: string) => new DatabaseAdapter(database.db, model);

describe("DatabaseAdapter", () => {
  it("stores, finds, replaces and destroys a record per model", async () => {
    const clients = adapter("Client");
    await clients.upsert("c1", { client_id: "c1", redirect_uris: ["http://127.0.0.1/cb"] });
    expect(await clients.find("c1")).toEqual({ client_id: "c1", redirect_uris: ["http://127.0.0.1/cb"] });
    expect(await adapter("Grant").find("c1")).toBeUndefined(); // models do not see each other's ids
    await clients.upsert("c1", { client_id: "c1", redirect_uris: [] });
    expect(await clients.find("c1")).toEqual({ client_id: "c1", redirect_uris: [] });
    await clients.destroy("c1");
    expect(await clients.find("c1")).toBeUndefined();
  });

  it("marks a record consumed with the epoch second it happened", async () => {
    const codes = adapter("AuthorizationCode");
    await codes.upsert("code1", { grantId: "g0" }, 60);
    expect((await codes.find("code1"))?.consumed).toBeUndefined();
    const before = Math.floor(Date.now() / 1000);
    await codes.consume("code1");
    const consumed = (await codes.find("code1"))?.consumed as number;
    expect(consumed).toBeGreaterThanOrEqual(before - 1);
    expect(consumed).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 1);
  });

  it("never returns an expired record, and purges old ones", async () => {
    const tokens = adapter("AccessToken");
    await tokens.upsert("gone", { grantId: "g9" }, -5);
    await tokens.upsert("kept", { grantId: "g9" }, 60);
    expect(await tokens.find("gone")).toBeUndefined();
    expect(await tokens.find("kept")).toEqual({ grantId: "g9" });
    await tokens.upsert("ancient", { grantId: "g9" }, -2 * 86_400);
    expect(await purgeExpiredOAuthRecords(database.db)).toBe(1);
  });

  it("finds sessions by uid and device codes by user code", async () => {
    await adapter("Session").upsert("s1", { uid: "u-123", accountId: "usr_1" }, 60);
    expect(await adapter("Session").findByUid("u-123")).toEqual({ uid: "u-123", accountId: "usr_1" });
    await adapter("DeviceCode").upsert("d1", { userCode: "ABCD-EFGH" }, 60);
    expect(await adapter("DeviceCode").findByUserCode("ABCD-EFGH")).toEqual({ userCode: "ABCD-EFGH" });
    expect(await adapter("Session").findByUid("nope")).toBeUndefined();
  });

  it("revokes every record of a grant, whatever its model, and nothing else", async () => {
    await adapter("AuthorizationCode").upsert("a", { grantId: "g1" }, 60);
    await adapter("AccessToken").upsert("b", { grantId: "g1" }, 60);
    await adapter("RefreshToken").upsert("c", { grantId: "g1" }, 60);
    await adapter("AccessToken").upsert("d", { grantId: "g2" }, 60);
    await adapter("AccessToken").revokeByGrantId("g1");
    expect(await adapter("AuthorizationCode").find("a")).toBeUndefined();
    expect(await adapter("AccessToken").find("b")).toBeUndefined();
    expect(await adapter("RefreshToken").find("c")).toBeUndefined();
    expect(await adapter("AccessToken").find("d")).toEqual({ grantId: "g2" });
  });
});

describe("signing keys", () => {
  it("are made once, even when asked for at the same time, and sign what their public half verifies", async () => {
    const sets = await Promise.all(Array.from({ length: 5 }, () => signingKeys(database.db)));
    const kids = new Set(sets.flat().map((k) => k.kid));
    expect(kids.size).toBe(1);
    expect(await signingKeys(database.db)).toEqual(sets[0]);
    const [key] = sets[0] ?? [];
    expect(key).toMatchObject({ kty: "RSA", alg: "RS256", use: "sig" });
    const publicKey = publicJwk(key ?? {});
    expect(Object.keys(publicKey).sort()).toEqual(["alg", "e", "kid", "kty", "n", "use"]);
    const jws = await new CompactSign(new TextEncoder().encode("payload"))
      .setProtectedHeader({ alg: "RS256", kid: key?.kid })
      .sign(await importJWK(key ?? {}, "RS256"));
    const verified = await compactVerify(jws, await importJWK(publicKey, "RS256"));
    expect(new TextDecoder().decode(verified.payload)).toBe("payload");
  });
});
