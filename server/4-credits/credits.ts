/**
 * Credits: an organization's balance and its ledger change together, in one statement — a
 * conditional UPDATE (balance >= cost) and the INSERT of the ledger row (for debits, many calls'
 * worth at once: see DebitBatcher). Concurrent calls serialise on the organization's row; none can
 * read a stale balance and overspend, and a balance never exists without the ledger row that
 * explains it.
 */
import { and, desc, eq, exists, inArray, lt, sql } from "drizzle-orm";
import { announceChange } from "../../db/change-feed";
import type { Database, Transaction } from "../../db/client";
import { preparedRows, queryRows } from "../../db/rows";
import { creditLedger, memberships, organizations } from "../../db/schema";
import { sharedRead } from "../../db/shared-read";
import { LOW_BALANCE_THRESHOLD_MAX } from "../1-domain/low-balance";
import { rolesThatMay } from "../1-domain/roles";

export interface Debit {
  organizationId: string;
  cost: number;
  operation: string;
  /** The API token (tok_…) or OAuth grant that made the call. */
  tokenId: string | null;
  requestId: string;
  /** When (epoch ms) the call gives up: a debit not written by then fails and charges nothing. */
  deadline?: number;
}

export type DebitResult = { ok: true; balance: number } | { ok: false; balance: number };

/**
 * What a debit leaves to do after its commit, handed to whoever listens: the app's job worker
 * queues it without the debit waiting. On globalThis: Next may load this module in several
 * bundles, and they must share one set of listeners per kind.
 */
function announcer<T>(name: string) {
  const shared = globalThis as typeof globalThis & { __mpsAnnouncers?: Map<string, Set<(items: T[]) => void>> };
  shared.__mpsAnnouncers ??= new Map();
  let listeners = shared.__mpsAnnouncers.get(name) as Set<(items: T[]) => void> | undefined;
  if (!listeners) {
    listeners = new Set();
    shared.__mpsAnnouncers.set(name, listeners as Set<(items: unknown[]) => void>);
  }
  const set = listeners;
  return {
    announce: (items: T[]) => {
      for (const listener of set) listener(items);
    },
    listen: (listener: (items: T[]) => void) => {
      set.add(listener);
      return () => set.delete(listener);
    },
  };
}

/**
 * E-mails a debit owes (its crossing of the low-balance threshold, written in the debit's own
 * transaction): the worker queues one mail job each. With no listener (the CLI, a test) they wait
 * for the notification sweep, which queues e-mails never tried.
 */
const owedMails = announcer<number>("owed-mails");

/** Hands e-mails owed (written in a committed transaction) to whoever listens: the job worker. */
export const announceMailsOwed: (deliveryIds: number[]) => void = owedMails.announce;
export const onMailsOwed: (listener: (deliveryIds: number[]) => void) => () => boolean = owedMails.listen;

/**
 * Automatic top-ups a debit scheduled (its crossing of the armed threshold: rows of
 * top_up_attempts written in the debit's transaction): the worker queues one job each. With no
 * listener they wait for the top-up sweep, which queues attempts still scheduled a minute later.
 */
const scheduledTopUps = announcer<string>("top-ups");

/** Hands top-up attempts scheduled (in a committed transaction) to whoever listens: the job worker. */
export const announceTopUpsScheduled: (attemptIds: string[]) => void = scheduledTopUps.announce;
export const onTopUpsScheduled: (listener: (attemptIds: string[]) => void) => () => boolean = scheduledTopUps.listen;

/**
 * Debits one successful call. Each organization has its own queue: calls that arrive while its
 * batch is being written wait for the next one, so under load one statement debits many calls
 * (group commit) instead of one each, and every call still gets exactly its own greedy check, its
 * own ledger row and its own balance after. One batch in flight per organization means an
 * organization whose row is held (a long transaction, a stuck script) waits alone, on one
 * connection, for at most its lock timeout: the other organizations' debits go on.
 */
export function debitCredits(db: Database, debit: Debit, options: DebitOptions = {}): Promise<DebitResult> {
  if (!Number.isInteger(debit.cost) || debit.cost <= 0) return Promise.reject(new Error(`invalid cost ${debit.cost}`));
  let queues = batchers.get(db);
  if (!queues) {
    queues = new Map();
    batchers.set(db, queues);
  }
  let batcher = queues.get(debit.organizationId);
  if (!batcher) {
    const organizationId = debit.organizationId;
    const owner = queues;
    batcher = new DebitBatcher(db, options.lockTimeoutMs ?? 0, () => owner.delete(organizationId));
    queues.set(organizationId, batcher);
  }
  return batcher.add(debit);
}

export interface DebitOptions {
  /** Longest wait for the organization's row (PostgreSQL lock_timeout); 0: no limit (the CLI, tests). */
  lockTimeoutMs?: number;
}

/** A debit that reached its deadline before it could be written: nothing was charged. */
export class DebitDeadlineError extends Error {
  readonly code = "57014"; // what PostgreSQL says when a statement's time runs out
  constructor() {
    super("the debit's deadline passed before it could be written");
    this.name = "DebitDeadlineError";
  }
}

/** The largest batch one statement writes; more wait for the next. */
const MAX_BATCH = 256;

interface Pending {
  debit: Debit;
  resolve(result: DebitResult): void;
  reject(error: unknown): void;
}

const batchers = new WeakMap<Database, Map<string, DebitBatcher>>();

class DebitBatcher {
  private queue: Pending[] = [];
  private writing = false;

  constructor(
    private readonly db: Database,
    private readonly lockTimeoutMs: number,
    private readonly onIdle: () => void,
  ) {}

  add(debit: Debit): Promise<DebitResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ debit, resolve, reject });
      // One batch in flight at a time; whatever arrives meanwhile goes in the next.
      if (!this.writing) {
        this.writing = true;
        setImmediate(() => void this.write());
      }
    });
  }

  private async write(): Promise<void> {
    while (this.queue.length > 0) {
      const now = Date.now();
      // Calls already past their deadline are refused unwritten; the rest wait at most until the
      // earliest deadline among them for the organization's row.
      const expired = this.queue.filter((pending) => (pending.debit.deadline ?? Infinity) <= now);
      for (const pending of expired) pending.reject(new DebitDeadlineError());
      this.queue = this.queue.filter((pending) => (pending.debit.deadline ?? Infinity) > now);
      const batch = this.queue.splice(0, MAX_BATCH);
      if (batch.length === 0) break;
      const earliest = Math.min(...batch.map((pending) => pending.debit.deadline ?? Infinity));
      const lockTimeoutMs = Math.max(
        1,
        Math.min(this.lockTimeoutMs > 0 ? this.lockTimeoutMs : Infinity, earliest - now),
      );
      try {
        const calls = JSON.stringify(batch.map(({ debit }) => ({ ...debit, deadline: undefined })));
        const limit = Number.isFinite(lockTimeoutMs) ? Math.ceil(lockTimeoutMs) : 0;
        const rows = await preparedRows<{
          position: number;
          debited: boolean;
          balance: number;
          mails: unknown;
          top_up: string | null;
        }>(this.db, DEBIT_BATCH, [calls, limit]);
        const owed = rows.flatMap((row) => (Array.isArray(row.mails) ? row.mails.map(Number) : []));
        if (owed.length > 0) announceMailsOwed(owed);
        const topUps = rows.flatMap((row) => (row.top_up ? [String(row.top_up)] : []));
        if (topUps.length > 0) announceTopUpsScheduled(topUps);
        const byPosition = new Map(rows.map((row) => [Number(row.position), row]));
        batch.forEach((pending, index) => {
          const row = byPosition.get(index + 1);
          if (!row) pending.reject(new Error("debit_batch returned no row for a call"));
          else pending.resolve({ ok: row.debited, balance: Number(row.balance) });
        });
      } catch (error) {
        // The statement failed as a whole: nothing of this batch was written.
        for (const pending of batch) pending.reject(error);
      }
    }
    this.writing = false;
    this.onIdle();
  }
}

/** The batch's one statement, prepared once per connection (db/rows.ts preparedRows). */
const DEBIT_BATCH = "select position, debited, balance, mails, top_up from debit_batch($1::jsonb, $2::integer)";

export class CreditsError extends Error {}

/** The organization's low-balance threshold (server/1-domain/low-balance.ts); 0: off. */
export async function lowBalanceThreshold(db: Database | Transaction, organizationId: string): Promise<number> {
  const [row] = await db
    .select({ threshold: organizations.lowBalanceThreshold })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  if (!row) throw new CreditsError(`no organization "${organizationId}"`);
  return row.threshold;
}

/**
 * Sets the threshold, if `userId`'s role holds credits.manage (owners, billing); false when not (nothing
 * changes). A threshold out of range is refused by the table's CHECK as well as here.
 */
export async function setLowBalanceThreshold(
  db: Database,
  change: { organizationId: string; userId: string; threshold: number },
): Promise<boolean> {
  const { organizationId, userId, threshold } = change;
  if (!Number.isSafeInteger(threshold) || threshold < 0 || threshold > LOW_BALANCE_THRESHOLD_MAX)
    throw new CreditsError(`a threshold must be a whole number from 0 to ${LOW_BALANCE_THRESHOLD_MAX}`);
  const rows = await db
    .update(organizations)
    .set({ lowBalanceThreshold: threshold })
    .where(
      and(
        eq(organizations.id, organizationId),
        exists(
          db
            .select({ one: sql`1` })
            .from(memberships)
            .where(
              and(
                eq(memberships.organizationId, organizationId),
                eq(memberships.userId, userId),
                inArray(memberships.role, rolesThatMay("credits.manage")),
              ),
            ),
        ),
      ),
    )
    .returning({ id: organizations.id });
  return rows.length > 0;
}

/**
 * A grant (amount > 0) or an adjustment (either sign) by an operator. A negative adjustment may
 * not take the balance below zero; a positive one is always written, even to a balance a refund
 * left below zero (docs/billing.md). Returns the new balance.
 */
export async function changeCredits(
  db: Database | Transaction,
  change: { organizationId: string; kind: "grant" | "adjustment"; amount: number; note?: string | null },
): Promise<number> {
  const { organizationId, kind, amount } = change;
  if (!Number.isSafeInteger(amount) || amount === 0 || (kind === "grant" && amount < 0))
    throw new CreditsError(
      kind === "grant" ? "a grant must be a positive whole number" : "an adjustment must be a non-zero whole number",
    );
  const [row] = await queryRows<{ balance_after: number }>(
    db,
    sql`with changed as (
          update organizations set credit_balance = credit_balance + ${amount}
          where id = ${organizationId} and (${amount} > 0 or credit_balance + ${amount} >= 0)
          returning id, credit_balance)
        insert into credit_ledger (organization_id, kind, amount, balance_after, note)
        select id, ${kind}, ${amount}, credit_balance, ${change.note ?? null} from changed
        returning balance_after`,
  );
  if (row) {
    announceChange("credentials"); // cached token holders carry the balance as a hint
    return Number(row.balance_after);
  }
  await creditBalance(db, organizationId); // throws when there is no such organization
  throw new CreditsError(`the adjustment would take the balance of "${organizationId}" below zero`);
}

/**
 * An organization's balance now, for an answer that debits nothing (a free call, a 304): the same
 * read as `creditBalance`, but the reads asked in one turn of the event loop are made by one
 * statement, for every organization asked (as debits are batched). Batches do not wait for each
 * other, and each starts after its callers asked, so it sees every debit finished before.
 */
export function readBalance(db: Database, organizationId: string): Promise<number> {
  let batch = pendingReads.get(db);
  if (!batch) {
    const opened = new Map<string, BalanceWaiter[]>();
    batch = opened;
    pendingReads.set(db, opened);
    setImmediate(() => {
      pendingReads.delete(db);
      void readBalances(db, opened);
    });
  }
  const waiters = batch.get(organizationId) ?? [];
  batch.set(organizationId, waiters);
  return new Promise((resolve, reject) => waiters.push({ resolve, reject }));
}

interface BalanceWaiter {
  resolve(balance: number): void;
  reject(error: unknown): void;
}

const pendingReads = new WeakMap<Database, Map<string, BalanceWaiter[]>>();

async function readBalances(db: Database, batch: Map<string, BalanceWaiter[]>): Promise<void> {
  const ids = [...batch.keys()];
  try {
    const rows = await db
      .select({ id: organizations.id, balance: organizations.creditBalance })
      .from(organizations)
      .where(ids.length === 1 ? eq(organizations.id, ids[0] as string) : inArray(organizations.id, ids));
    const balances = new Map(rows.map((row) => [row.id, row.balance]));
    for (const [id, waiters] of batch) {
      const balance = balances.get(id);
      for (const waiter of waiters)
        if (balance === undefined) waiter.reject(new CreditsError(`no organization "${id}"`));
        else waiter.resolve(balance);
    }
  } catch (error) {
    for (const waiters of batch.values()) for (const waiter of waiters) waiter.reject(error);
  }
}

export async function creditBalance(db: Database | Transaction, organizationId: string): Promise<number> {
  const [row] = await db
    .select({ balance: organizations.creditBalance })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  if (!row) throw new CreditsError(`no organization "${organizationId}"`);
  return row.balance;
}

export type LedgerKind = (typeof creditLedger.kind.enumValues)[number];

export interface LedgerEntry {
  id: number;
  kind: LedgerKind;
  amount: number;
  balanceAfter: number;
  operation: string | null;
  tokenId: string | null;
  requestId: string | null;
  note: string | null;
  createdAt: Date;
}

/** Newest first; `before` is the id of the last entry of the previous page (keyset paging). */
export async function ledgerPage(
  db: Database,
  organizationId: string,
  { before, limit }: { before?: number; limit: number },
): Promise<{ entries: LedgerEntry[]; nextBefore: number | null }> {
  // Identical page reads in one turn share a statement (db/shared-read.ts); the answer is not mutated.
  return sharedRead(db, `ledger ${organizationId} ${before ?? "-"} ${limit}`, () =>
    readLedgerPage(db, organizationId, { before, limit }),
  );
}

async function readLedgerPage(
  db: Database,
  organizationId: string,
  { before, limit }: { before?: number; limit: number },
): Promise<{ entries: LedgerEntry[]; nextBefore: number | null }> {
  const rows = await db
    .select({
      id: creditLedger.id,
      kind: creditLedger.kind,
      amount: creditLedger.amount,
      balanceAfter: creditLedger.balanceAfter,
      operation: creditLedger.operation,
      tokenId: creditLedger.tokenId,
      requestId: creditLedger.requestId,
      note: creditLedger.note,
      createdAt: creditLedger.createdAt,
    })
    .from(creditLedger)
    .where(
      before === undefined
        ? eq(creditLedger.organizationId, organizationId)
        : and(eq(creditLedger.organizationId, organizationId), lt(creditLedger.id, before)),
    )
    .orderBy(desc(creditLedger.id))
    .limit(limit + 1);
  const entries = rows.slice(0, limit);
  return { entries, nextBefore: rows.length > limit ? (entries.at(-1)?.id ?? null) : null };
}
