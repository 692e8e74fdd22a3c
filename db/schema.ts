/**
 * The one database schema, for PostgreSQL and embedded PGlite alike.
 *
 * Controls and geographies are the live catalogue. A release is immutable: it keeps the market
 * definition it was scored from, the controls and geographies as they were, and the computed
 * results (a trigger in the migrations refuses UPDATE and DELETE on releases and their results).
 */
import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  unique,
} from "drizzle-orm/pg-core";
import type { Control, Geography, MarketFile } from "../server/catalog/definition";
import type { Dimension } from "../server/scoring/engine";
import type { CountryResult, ProductScore } from "../server/scoring/types";

export const controls = pgTable("controls", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  description: text("description").notNull(),
  framework: text("framework").notNull(),
});

export const geographies = pgTable(
  "geographies",
  {
    country: text("country").primaryKey(),
    name: text("name").notNull(),
  },
  (t) => [check("geographies_country_iso", sql`${t.country} ~ '^[A-Z]{2}$'`)],
);

export const geographyControls = pgTable(
  "geography_controls",
  {
    country: text("country")
      .notNull()
      .references(() => geographies.country, { onDelete: "cascade" }),
    controlId: text("control_id")
      .notNull()
      .references(() => controls.id),
  },
  (t) => [primaryKey({ columns: [t.country, t.controlId] })],
);

export const marketStatus = pgEnum("market_status", ["listed", "archived"]);

export const markets = pgTable("markets", {
  marketId: text("market_id").primaryKey(),
  name: text("name").notNull(),
  description: text("description").notNull(),
  status: marketStatus("status").notNull().default("listed"),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  archivedAt: timestamp("archived_at", { withTimezone: true, mode: "date" }),
});

export const releases = pgTable(
  "releases",
  {
    id: serial("id").primaryKey(),
    marketId: text("market_id")
      .notNull()
      .references(() => markets.marketId),
    release: integer("release").notNull(),
    /** Publish time; `lastUpdated` in every payload of this release. */
    publishedAt: timestamp("published_at", { withTimezone: true, mode: "date" }).notNull(),
    methodologyVersion: text("methodology_version").notNull(),
    methodology: text("methodology").notNull(),
    material: boolean("material").notNull(),
    notes: text("notes").notNull(),
    /** SHA-256 of the canonical definition JSON: what exactly was scored. */
    definitionSha256: text("definition_sha256").notNull(),
    definition: jsonb("definition").$type<MarketFile>().notNull(),
    controls: jsonb("controls").$type<Control[]>().notNull(),
    geographies: jsonb("geographies").$type<Geography[]>().notNull(),
    dimensions: jsonb("dimensions").$type<Dimension[]>().notNull(),
    products: jsonb("products").$type<ProductScore[]>().notNull(),
  },
  (t) => [
    unique("releases_market_release").on(t.marketId, t.release),
    check("releases_release_positive", sql`${t.release} > 0`),
  ],
);

export const releaseCountryResults = pgTable(
  "release_country_results",
  {
    releaseId: integer("release_id")
      .notNull()
      .references(() => releases.id),
    country: text("country").notNull(),
    result: jsonb("result").$type<CountryResult>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.releaseId, t.country] })],
);
