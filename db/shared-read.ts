/**
 * One statement for identical reads asked in the same turn of the event loop.
 *
 * An organization's own reads (its row, a ledger page, its usage) are free calls that an
 * integrator or an agent repeats; under load many of them ask the same thing at once. Each asks
 * here with a key naming its read; the reads with the same key asked in one turn share one load,
 * which starts on the next turn — after every one of them asked — so each answer sees every write
 * committed before its caller asked (a caller's own debit included). Nothing is kept after the load
 * settles: this shares a round trip, it is not a cache.
 */
import type { Database } from "./client";

type Pending = Map<string, { load: () => Promise<unknown>; waiters: Waiter[] }>;

interface Waiter {
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

const pendingByDatabase = new WeakMap<Database, Pending>();

export function sharedRead<T>(db: Database, key: string, load: () => Promise<T>): Promise<T> {
  let pending = pendingByDatabase.get(db);
  if (!pending) {
    const opened: Pending = new Map();
    pending = opened;
    pendingByDatabase.set(db, opened);
    setImmediate(() => {
      pendingByDatabase.delete(db);
      for (const { load: run, waiters } of opened.values()) settle(run, waiters);
    });
  }
  const entry = pending.get(key) ?? { load, waiters: [] };
  pending.set(key, entry);
  return new Promise<T>((resolve, reject) => entry.waiters.push({ resolve: resolve as Waiter["resolve"], reject }));
}

function settle(load: () => Promise<unknown>, waiters: Waiter[]): void {
  load().then(
    (value) => {
      for (const waiter of waiters) waiter.resolve(value);
    },
    (error: unknown) => {
      for (const waiter of waiters) waiter.reject(error);
    },
  );
}
