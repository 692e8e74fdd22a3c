/**
 * oidc-provider's storage on our database (its Adapter interface): every model in one table,
 * keyed by (model, id), with the secondary keys it looks things up by — grant id (to revoke every
 * token of a grant at once), session uid and user code. Expired records are never returned.
 */
import { and, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { oauthRecords } from "../../db/schema";

type Payload = Record<string, unknown> & { grantId?: string; userCode?: string; uid?: string };

const live = () => or(isNull(oauthRecords.expiresAt), gt(oauthRecords.expiresAt, sql`now()`));

/** One adapter per oidc-provider model, all on the same table. */
export class DatabaseAdapter {
  constructor(
    private readonly db: Database,
    readonly model: string,
  ) {}

  async upsert(id: string, payload: Payload, expiresIn?: number): Promise<void> {
    const values = {
      model: this.model,
      id,
      payload,
      grantId: payload.grantId ?? null,
      userCode: payload.userCode ?? null,
      uid: payload.uid ?? null,
      expiresAt: typeof expiresIn === "number" ? new Date(Date.now() + expiresIn * 1000) : null,
    };
    await this.db
      .insert(oauthRecords)
      .values(values)
      .onConflictDoUpdate({
        target: [oauthRecords.model, oauthRecords.id],
        set: {
          payload: values.payload,
          grantId: values.grantId,
          userCode: values.userCode,
          uid: values.uid,
          expiresAt: values.expiresAt,
        },
      });
  }

  private async findWhere(condition: ReturnType<typeof eq>): Promise<Payload | undefined> {
    const [row] = await this.db
      .select({ payload: oauthRecords.payload, consumedAt: oauthRecords.consumedAt })
      .from(oauthRecords)
      .where(and(eq(oauthRecords.model, this.model), condition, live()))
      .limit(1);
    if (!row) return undefined;
    // oidc-provider reads `consumed` (epoch seconds) to refuse a reused code or rotated token.
    return row.consumedAt ? { ...row.payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : row.payload;
  }

  find(id: string) {
    return this.findWhere(eq(oauthRecords.id, id));
  }

  findByUid(uid: string) {
    return this.findWhere(eq(oauthRecords.uid, uid));
  }

  findByUserCode(userCode: string) {
    return this.findWhere(eq(oauthRecords.userCode, userCode));
  }

  async consume(id: string): Promise<void> {
    await this.db
      .update(oauthRecords)
      .set({ consumedAt: new Date() })
      .where(and(eq(oauthRecords.model, this.model), eq(oauthRecords.id, id)));
  }

  async destroy(id: string): Promise<void> {
    await this.db.delete(oauthRecords).where(and(eq(oauthRecords.model, this.model), eq(oauthRecords.id, id)));
  }

  /** Every record of the grant, whatever its model: codes, access and refresh tokens. */
  async revokeByGrantId(grantId: string): Promise<void> {
    await this.db.delete(oauthRecords).where(eq(oauthRecords.grantId, grantId));
  }
}

/** Deletes records expired for over a day (kept that long for diagnosis); returns how many. */
export async function purgeExpiredOAuthRecords(db: Database): Promise<number> {
  const deleted = await db
    .delete(oauthRecords)
    .where(lt(oauthRecords.expiresAt, sql`now() - interval '1 day'`))
    .returning({ id: oauthRecords.id });
  return deleted.length;
}

/**
 * Dynamic registrations never used for an authorization leave after `unusedForHours`: a
 * registration counts as used while any record of oidc-provider's (grant, code, token, session)
 * names it. Anyone may register, so nothing else bounds how many are kept.
 */
export async function expireUnusedRegistrations(db: Database, unusedForHours: number): Promise<number> {
  const deleted = await db.execute(sql`
    delete from oauth_records as client
    where client.model = 'Client'
      and coalesce((client.payload ->> 'client_id_issued_at')::bigint, 0)
          < extract(epoch from now() - make_interval(hours => ${unusedForHours}))
      and not exists (
        select 1 from oauth_records as used
        where used.model <> 'Client' and used.payload ->> 'clientId' = client.id
      )
    returning client.id`);
  return Array.isArray(deleted) ? deleted.length : ((deleted as { rows?: unknown[] }).rows?.length ?? 0);
}
