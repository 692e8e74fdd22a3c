/**
 * The catalogue in the database: publishing the controls/geographies catalogue, publishing a
 * market release, archiving, listing. Every write is one transaction and runs only after the
 * file has been fully checked, so bad input writes nothing.
 */
import { and, asc, count, desc, eq, getTableColumns, inArray, max, sql } from "drizzle-orm";
import { announceChange } from "../../db/change-feed";
import type { Database, Transaction } from "../../db/client";
import { queryRows } from "../../db/rows";
import * as t from "../../db/schema";
import { canonicalJson, sha256 } from "../1-domain/canonical";
import { checkGeographies, checkMarket } from "../1-domain/definition-checks";
import type { Control, GeographiesFile, Geography, MarketFile } from "../1-domain/market-definition";
import type { CountryResult } from "../1-domain/scores";
import type { MarketSensitivity } from "../1-domain/sensitivity";
import { type ReleaseData, SENSITIVITY_JSON } from "../2-readings/release";
import { scoreMarket } from "../2-scoring/engine";
import { analyseSensitivity } from "../2-scoring/sensitivity";
import { workerMinProducts } from "../3-workers/pool";

/** A catalogue operation refused for a reason other than the file's content. */
export class CatalogStateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CatalogStateError";
  }
}

type Reader = Database | Transaction;

export async function readControls(db: Reader): Promise<Control[]> {
  const rows = await db.select().from(t.controls).orderBy(asc(t.controls.id));
  // A control's sovereignty mapping is optional: absent, not null, as the catalogue file has it.
  return rows.map(({ sov, ...control }) => (sov ? { ...control, sov } : control));
}

export async function readGeographies(db: Reader): Promise<Geography[]> {
  const rows = await db.select().from(t.geographies).orderBy(asc(t.geographies.country));
  const links = await db.select().from(t.geographyControls).orderBy(asc(t.geographyControls.controlId));
  return rows.map((g) => ({
    country: g.country,
    name: g.name,
    controls: links.filter((l) => l.country === g.country).map((l) => l.controlId),
  }));
}

/** Replaces the live controls and geographies with the file's. Releases keep their own copies. */
export async function publishGeographies(db: Database, file: string, definition: GeographiesFile) {
  checkGeographies(file, definition);
  await db.transaction(async (tx) => {
    await tx.delete(t.geographyControls);
    await tx.delete(t.geographies);
    for (const control of definition.controls) {
      const row = { ...control, sov: control.sov ?? null };
      await tx
        .insert(t.controls)
        .values(row)
        .onConflictDoUpdate({
          target: t.controls.id,
          set: { name: row.name, description: row.description, framework: row.framework, sov: row.sov },
        });
    }
    const keep = new Set(definition.controls.map((c) => c.id));
    for (const { id } of await tx.select({ id: t.controls.id }).from(t.controls))
      if (!keep.has(id)) await tx.delete(t.controls).where(eq(t.controls.id, id));
    await tx.insert(t.geographies).values(definition.geographies.map(({ country, name }) => ({ country, name })));
    const links = definition.geographies.flatMap((g) =>
      g.controls.map((controlId) => ({ country: g.country, controlId })),
    );
    if (links.length > 0) await tx.insert(t.geographyControls).values(links);
  });
  announceChange("catalogue"); // the geographies list is kept until the catalogue changes
  return { controls: definition.controls.length, geographies: definition.geographies.length };
}

export interface PublishOptions {
  notes: string;
  material: boolean;
  /** The release's `lastUpdated`; the publish time. */
  publishedAt: Date;
  /** Draws of the release's sensitivity analysis (SENSITIVITY_DEFAULTS.draws when not given). */
  draws?: number;
  /** Told where a long publish is: scoring products, then control sets, then writing. */
  progress?: (stage: "products" | "control sets" | "writing", done: number, total: number) => void;
}

export interface PublishedRelease {
  marketId: string;
  release: number;
  releaseId: number;
  publishedAt: Date;
  products: number;
  countries: number;
}

/**
 * What every publish does before it writes, and `ops catalog preview` does instead of writing: the
 * market checked against the live controls (and its evidence against the release's date, so no
 * `asOf` postdates the release) and scored for every live geography.
 */
export async function scoreForPublishing(
  db: Reader,
  file: string,
  definition: MarketFile,
  { publishedAt, progress }: Pick<PublishOptions, "publishedAt" | "progress">,
) {
  const controls = await readControls(db);
  checkMarket(file, definition, controls, { releaseDate: publishedAt });
  const geographies = await readGeographies(db);
  if (geographies.length === 0)
    throw new CatalogStateError("no geographies in the catalogue: publish a geographies file first");
  return { controls, geographies, scored: scoreMarket(definition, geographies, progress) };
}

/** A market's releases are refused while it is archived. */
export const archivedRefusal = (marketId: string) =>
  new CatalogStateError(`market "${marketId}" is archived; restore it first (ops catalog restore ${marketId})`);

/** Release `release` of a scored market as the releases table stores it. */
export function releaseRecord(
  definition: MarketFile,
  { controls, geographies, scored }: Awaited<ReturnType<typeof scoreForPublishing>>,
  release: number,
  options: Pick<PublishOptions, "notes" | "material" | "publishedAt">,
) {
  return {
    marketId: definition.marketId,
    release,
    publishedAt: options.publishedAt,
    methodologyVersion: definition.methodologyVersion,
    methodology: definition.methodology,
    material: options.material,
    notes: options.notes.trim(),
    definitionSha256: sha256(canonicalJson(definition)),
    definition,
    controls,
    geographies,
    dimensions: scored.dimensions,
    products: scored.products,
  } satisfies typeof t.releases.$inferInsert;
}

/**
 * The seed of a release's sensitivity analysis: it names the release, so the analysis run at
 * publish time and one run again later (for a release stored before the analysis existed) agree.
 */
export const sensitivitySeed = (marketId: string, release: number) => `${marketId}#${release}`;

/** How sure each score and rank of a release is (server/2-scoring/sensitivity.ts), with the defaults. */
export const analyseRelease = (
  definition: MarketFile,
  geographies: readonly Geography[],
  release: number,
  draws?: number,
) =>
  analyseSensitivity(definition, geographies, {
    seed: sensitivitySeed(definition.marketId, release),
    ...(draws === undefined ? {} : { draws }),
  });

/** Checks the market against the live controls, scores it for every live geography, stores release N+1. */
export async function publishMarket(
  db: Database,
  file: string,
  definition: MarketFile,
  options: PublishOptions,
): Promise<PublishedRelease> {
  if (!options.notes.trim()) throw new CatalogStateError("--notes is required: say what changed in this release");
  const published = await db.transaction(async (tx) => {
    const scoring = await scoreForPublishing(tx, file, definition, options);
    options.progress?.("writing", 0, 1);

    await tx
      .insert(t.markets)
      .values({ marketId: definition.marketId, name: definition.name, description: definition.description })
      .onConflictDoNothing();
    // Row lock: concurrent publishes of one market number their releases one after the other.
    const [market] = await tx.select().from(t.markets).where(eq(t.markets.marketId, definition.marketId)).for("update");
    if (market?.status === "archived") throw archivedRefusal(definition.marketId);
    const [latest] = await tx
      .select({ release: max(t.releases.release) })
      .from(t.releases)
      .where(eq(t.releases.marketId, definition.marketId));
    const release = (latest?.release ?? 0) + 1;

    const [row] = await tx
      .insert(t.releases)
      .values({
        ...releaseRecord(definition, scoring, release, options),
        sensitivity: analyseRelease(definition, scoring.geographies, release, options.draws),
      })
      .returning({ id: t.releases.id });
    const releaseId = (row as { id: number }).id;
    const { scored } = scoring;
    await tx
      .insert(t.releaseCountryResults)
      .values(scored.countries.map((result) => ({ releaseId, country: result.country, result })));
    await tx
      .update(t.markets)
      .set({ name: definition.name, description: definition.description })
      .where(eq(t.markets.marketId, definition.marketId));
    // In the same transaction: followers are notified of exactly the releases that exist.
    await tx.insert(t.catalogueEvents).values({ kind: "release_published", marketId: definition.marketId, release });
    return {
      marketId: definition.marketId,
      release,
      releaseId,
      publishedAt: options.publishedAt,
      products: scored.products.length,
      countries: scored.countries.length,
    };
  });
  announceChange("catalogue");
  return published;
}

async function setStatus(db: Database, marketId: string, status: "listed" | "archived") {
  await db.transaction(async (tx) => {
    const [before] = await tx
      .select({ status: t.markets.status })
      .from(t.markets)
      .where(eq(t.markets.marketId, marketId))
      .for("update");
    if (!before) throw new CatalogStateError(`no market "${marketId}"`);
    await tx
      .update(t.markets)
      .set({ status, archivedAt: status === "archived" ? sql`now()` : null })
      .where(eq(t.markets.marketId, marketId));
    // Archiving a listed market notifies its followers (once: archiving it again changes nothing).
    if (status === "archived" && before.status === "listed")
      await tx.insert(t.catalogueEvents).values({ kind: "market_archived", marketId });
  });
  announceChange("catalogue");
}

/** Archived markets are 404 everywhere and absent from every list; their releases are kept. */
export const archiveMarket = (db: Database, marketId: string) => setStatus(db, marketId, "archived");
export const restoreMarket = (db: Database, marketId: string) => setStatus(db, marketId, "listed");

export interface MarketSummary {
  marketId: string;
  name: string;
  description: string;
  status: "listed" | "archived";
  release: number | null;
  lastUpdated: Date | null;
  productCount: number;
}

/** Every market with its latest release, by id; `listedOnly` leaves archived ones out. */
export async function listMarkets(db: Reader, { listedOnly = false } = {}): Promise<MarketSummary[]> {
  const latest = db
    .select({ marketId: t.releases.marketId, release: max(t.releases.release).as("latest_release") })
    .from(t.releases)
    .groupBy(t.releases.marketId)
    .as("latest");
  const rows = await db
    .select({
      marketId: t.markets.marketId,
      name: t.markets.name,
      description: t.markets.description,
      status: t.markets.status,
      release: t.releases.release,
      lastUpdated: t.releases.publishedAt,
      productCount: sql<number>`coalesce(jsonb_array_length(${t.releases.products}), 0)`.mapWith(Number),
    })
    .from(t.markets)
    .leftJoin(latest, eq(latest.marketId, t.markets.marketId))
    .leftJoin(t.releases, and(eq(t.releases.marketId, t.markets.marketId), eq(t.releases.release, latest.release)))
    .where(listedOnly ? eq(t.markets.status, "listed") : undefined)
    .orderBy(asc(t.markets.marketId));
  return rows;
}

export async function catalogueIsEmpty(db: Reader): Promise<boolean> {
  const [markets] = await db.select({ n: count() }).from(t.markets);
  const [controls] = await db.select({ n: count() }).from(t.controls);
  return (markets?.n ?? 0) === 0 && (controls?.n ?? 0) === 0;
}

/** Which stored release a request means: the latest of a listed market, or release N of it. */
export async function findRelease(
  db: Reader,
  marketId: string,
  release?: number,
): Promise<{ id: number; release: number } | undefined> {
  const [row] = await db
    .select({ id: t.releases.id, release: t.releases.release })
    .from(t.releases)
    .innerJoin(t.markets, eq(t.markets.marketId, t.releases.marketId))
    .where(
      and(
        eq(t.releases.marketId, marketId),
        eq(t.markets.status, "listed"),
        release === undefined ? undefined : eq(t.releases.release, release),
      ),
    )
    .orderBy(desc(t.releases.release))
    .limit(1);
  return row;
}

/** A market's status; undefined when there is no such market. */
export async function readMarketStatus(db: Reader, marketId: string): Promise<"listed" | "archived" | undefined> {
  const [market] = await db
    .select({ status: t.markets.status })
    .from(t.markets)
    .where(eq(t.markets.marketId, marketId));
  return market?.status;
}

/** A release as the readings see it: what the releases table stores and the release's country results. */
export function decodeRelease(
  stored: Omit<ReturnType<typeof releaseRecord>, "definitionSha256" | "sensitivity"> & {
    sensitivity?: MarketSensitivity | null;
    /**
     * Instead of `sensitivity`: its stored JSON text, or how to read it when first asked (a large
     * market's, ./store.ts readReleaseById), parsed only when `sensitivity` is read.
     */
    sensitivityJson?: string | null | (() => Promise<string | null>);
  },
  results: readonly { country: string; result: CountryResult }[],
): ReleaseData {
  let text: string | null | undefined =
    typeof stored.sensitivityJson === "function" ? undefined : stored.sensitivityJson;
  let reading: Promise<string | null> | undefined;
  const readText = typeof stored.sensitivityJson === "function" ? stored.sensitivityJson : undefined;
  let sensitivity: MarketSensitivity | undefined;
  // Stored at publish time; a release from before the analysis (or before its rank odds) is
  // analysed once, when first asked, with its own seed and draws: the same numbers, and the odds.
  const analysed = (kept: MarketSensitivity | null | undefined) =>
    kept?.odds
      ? kept
      : analyseRelease(storedDefinition(stored.definition), stored.geographies, stored.release, kept?.draws);
  const release = {
    marketId: stored.marketId,
    name: stored.definition.name,
    description: stored.definition.description,
    release: stored.release,
    lastUpdated: stored.publishedAt.toISOString(),
    methodologyVersion: stored.methodologyVersion,
    methodology: stored.methodology,
    material: stored.material,
    notes: stored.notes,
    dimensions: stored.dimensions,
    products: stored.products,
    controls: stored.controls,
    countries: new Map(results.map((r) => [r.country, r.result])),
    definition: storedDefinition(stored.definition),
    geographies: stored.geographies,
    get sensitivity() {
      if (sensitivity) return sensitivity;
      if (text !== undefined) sensitivity = analysed(text === null ? null : (JSON.parse(text) as MarketSensitivity));
      else if (readText) {
        // Read on the event loop of a large market (its readings go to workers): the same numbers, analysed again.
        console.warn(`[catalog] ${stored.marketId} release ${stored.release}: sensitivity read before it was loaded`);
        sensitivity = analysed(undefined);
      } else sensitivity = analysed(stored.sensitivity);
      text = undefined;
      return sensitivity;
    },
  };
  // The text as stored, while unparsed and holding the odds (else the getter analyses).
  Object.defineProperty(release, SENSITIVITY_JSON, {
    value: async () => {
      if (sensitivity === undefined && text === undefined && readText) {
        reading ??= readText();
        text = await reading;
      }
      return sensitivity === undefined && typeof text === "string" && text.includes('"odds"') ? text : undefined;
    },
    enumerable: false,
  });
  return release;
}

/** Characters of a large market's sensitivity one row carries (./store.ts readReleaseById). */
const SENSITIVITY_PIECE = 1 << 20;

/** How many countries' results one query reads: each some 75 KB of JSON at 1,000 products (about 10 ms on the embedded database). */
const RESULTS_PER_QUERY = 2;

/** A turn of the event loop: the embedded database answers in microtasks, so awaits alone never give one. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * One stored release, decoded for the readings. Read in pieces with a turn of the event loop
 * between them, so that no piece holds it long for a large market: the release's row, then its
 * countries' results a few at a time. A large market's sensitivity (megabytes of JSON) is read only
 * when a worker thread is handed the release (its readings are computed there: WORKER_MIN_PRODUCTS),
 * as text; a small one's with the row.
 */
export async function readReleaseById(db: Reader, id: number): Promise<ReleaseData> {
  const { sensitivity: _, ...columns } = getTableColumns(t.releases);
  const [stored] = await db.select(columns).from(t.releases).where(eq(t.releases.id, id));
  if (!stored) throw new Error(`release ${id} does not exist`);
  const sensitivityText = async () => {
    await turn();
    // In pieces of SENSITIVITY_PIECE characters, one row each: a single row of tens of megabytes
    // is gathered and decoded by the driver in one go, on the event loop.
    const pieces = await queryRows<{ piece: string | null }>(
      db,
      sql`with stored as materialized (select ${t.releases.sensitivity}::text as text from ${t.releases} where ${t.releases.id} = ${id})
          select substr(stored.text, at, ${SENSITIVITY_PIECE}) as piece
          from stored, generate_series(1, greatest(length(stored.text), 1), ${SENSITIVITY_PIECE}) as at
          order by at`,
    );
    if (pieces.length === 0 || pieces[0]?.piece === null || pieces[0]?.piece === undefined) return null;
    return pieces.map((row) => row.piece ?? "").join("");
  };
  const large = stored.products.length >= workerMinProducts();
  const sensitivityJson = large ? sensitivityText : await sensitivityText();
  await turn();
  const countries = await db
    .select({ country: t.releaseCountryResults.country })
    .from(t.releaseCountryResults)
    .where(eq(t.releaseCountryResults.releaseId, stored.id))
    .orderBy(asc(t.releaseCountryResults.country));
  const results: { country: string; result: CountryResult }[] = [];
  for (let i = 0; i < countries.length; i += RESULTS_PER_QUERY) {
    await turn();
    const batch = countries.slice(i, i + RESULTS_PER_QUERY).map((c) => c.country);
    results.push(
      ...(await db
        .select({ country: t.releaseCountryResults.country, result: t.releaseCountryResults.result })
        .from(t.releaseCountryResults)
        .where(and(eq(t.releaseCountryResults.releaseId, stored.id), inArray(t.releaseCountryResults.country, batch)))),
    );
  }
  return decodeRelease({ ...stored, sensitivityJson }, results);
}

/**
 * A stored definition as the current schema types it. Releases stored before evidence existed
 * have no `evidence` on their offerings: they read as none ({}), as a file without evidence parses.
 */
export function storedDefinition(definition: MarketFile): MarketFile {
  if (definition.products.every((p) => p.offerings.every((o) => o.evidence !== undefined))) return definition;
  return {
    ...definition,
    products: definition.products.map((product) => ({
      ...product,
      offerings: product.offerings.map((offering) => ({ ...offering, evidence: offering.evidence ?? {} })),
    })),
  };
}

/** Every release of a listed market, newest first; undefined when the market is unknown or archived. */
export async function readChangelog(db: Reader, marketId: string) {
  const [market] = await db
    .select({ status: t.markets.status })
    .from(t.markets)
    .where(eq(t.markets.marketId, marketId));
  if (market?.status !== "listed") return undefined;
  return db
    .select({
      release: t.releases.release,
      publishedAt: t.releases.publishedAt,
      methodologyVersion: t.releases.methodologyVersion,
      material: t.releases.material,
      notes: t.releases.notes,
    })
    .from(t.releases)
    .where(eq(t.releases.marketId, marketId))
    .orderBy(desc(t.releases.release));
}
