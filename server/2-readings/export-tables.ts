/**
 * A release as tables: what a whole-release export writes (docs/interface.md, "Exports"). Each
 * table is a list of columns and a function that yields its rows one at a time, so a table of
 * 60,000 rows is written without ever being held whole. Pure: a release in, rows out.
 *
 * The cells follow the rule of everything made for a person or a spreadsheet: where a product is
 * unavailable under a country's controls, its scores under controls, distance and Max rank are
 * empty (null in JSON) beside `available = false`, never a zero that reads as a score.
 */
import { AXES, type Axis } from "../1-domain/market-definition";
import type { Distance, Scores } from "../1-domain/scores";
import { SOV_OBJECTIVE_IDS } from "../1-domain/sovereignty";
import { capaindex } from "./capaindex";
import { delta } from "./delta";
import type { ReleaseData } from "./release";
import { servicemax } from "./servicemax";
import { snapshot } from "./snapshot";
import { profilesUnder } from "./sovereignty";

export type ExportCell = string | number | boolean | null;

/** `value`: an indicator value as the catalogue writes it (a number, a boolean or a level name). */
export type ExportColumnType = "string" | "integer" | "number" | "boolean" | "value";

export interface ExportColumn {
  name: string;
  type: ExportColumnType;
  description: string;
}

export interface ExportTable {
  /** The file's name without its extension: `snapshot` → snapshot.csv and snapshot.json. */
  name: ExportTableName;
  description: string;
  columns: readonly ExportColumn[];
  /** Each row's cells in the columns' order, computed as they are read. */
  rows(): Iterable<readonly ExportCell[]>;
}

type TableBody = Omit<ExportTable, "name">;

/** Lists in one cell (controls, gaps, levels): ids joined by semicolons, which no id contains. */
const joined = (items: readonly string[]) => items.join(";");

const column = (name: string, type: ExportColumnType, description: string): ExportColumn => ({
  name,
  type,
  description,
});

const PRODUCT_COLUMNS = [
  column("product_id", "string", "The product's id (stable across releases)."),
  column("name", "string", "The product's name."),
  column("vendor", "string", "The vendor's name."),
] as const;

const scoreColumns = (prefix: string, what: string): ExportColumn[] =>
  AXES.map((axis) => column(`${prefix}_${axis}`, "number", `${what}, ${axis} (0–100).`));

const scoreCells = (scores: Scores | null): ExportCell[] => AXES.map((axis) => (scores ? scores[axis] : null));

/**
 * Columns beside the cells that fill them, so a table's header and its rows are written once and
 * cannot drift apart: one field may span several columns (the three scores).
 */
interface Fields<Row> {
  columns: readonly ExportColumn[];
  cells(row: Row): ExportCell[];
}

const field = <Row>(name: string, type: ExportColumnType, description: string, cell: (row: Row) => ExportCell) => ({
  columns: [column(name, type, description)],
  cells: (row: Row) => [cell(row)],
});

const fields = <Row>(...parts: Fields<Row>[]): Fields<Row> => ({
  columns: parts.flatMap((part) => part.columns),
  cells: (row) => parts.flatMap((part) => part.cells(row)),
});

const scoreFields = <Row>(prefix: string, what: string, scores: (row: Row) => Scores | null): Fields<Row> => ({
  columns: scoreColumns(prefix, what),
  cells: (row) => scoreCells(scores(row)),
});

const distanceFields = <Row>(distance: (row: Row) => Distance | null): Fields<Row> => ({
  columns: [
    ...AXES.map((axis) =>
      column(`distance_${axis}`, "number", `Under controls minus published, ${axis}; empty when unavailable.`),
    ),
    column("distance_magnitude", "number", "Euclidean norm of the three distances; empty when unavailable."),
  ],
  cells: (row) => {
    const d = distance(row);
    return d ? [...AXES.map((axis) => d[axis]), d.magnitude] : [null, null, null, null];
  },
});

/** The columns every under-controls table starts with: the country, then the product. */
const CONTROLLED_HEAD: ExportColumn[] = [
  column("country", "string", "ISO 3166-1 alpha-2 code of the country whose controls are engaged."),
  ...PRODUCT_COLUMNS,
];

interface Movement {
  productId: string;
  name: string;
  vendor: string;
  available: boolean;
  offering: { id: string; name: string } | null;
  missingControls: string[];
}

/** A row of an under-controls table: one product under one country's controls. */
type Controlled<P extends Movement> = { country: string; p: P };

const controlledHead = <P extends Movement>(): Fields<Controlled<P>> => ({
  columns: CONTROLLED_HEAD,
  cells: ({ country, p }) => [country, p.productId, p.name, p.vendor],
});

const availabilityFields = <P extends Movement>(): Fields<Controlled<P>> =>
  fields(
    field(
      "available",
      "boolean",
      "Whether an offering of the product satisfies every control of the country.",
      ({ p }) => p.available,
    ),
    field(
      "offering_id",
      "string",
      "The offering engaged under the controls; empty when unavailable.",
      ({ p }) => p.offering?.id ?? null,
    ),
    field("offering_name", "string", "Its name.", ({ p }) => p.offering?.name ?? null),
    field(
      "missing_controls",
      "string",
      "When unavailable: the controls the closest offering lacks, ;-separated.",
      ({ p }) => joined(p.missingControls),
    ),
  );

/** The countries of the release, in code order (the order every under-controls table follows). */
const countriesOf = (release: ReleaseData) => [...release.countries.keys()].sort();

function productsTable(release: ReleaseData): TableBody {
  return {
    description: "Every product of the release, in the catalogue's order.",
    columns: PRODUCT_COLUMNS,
    *rows() {
      for (const p of release.definition.products) yield [p.productId, p.name, p.vendor];
    },
  };
}

function offeringsTable(release: ReleaseData): TableBody {
  return {
    description: "Every offering of every product: the default (the published configuration) and sovereign ones.",
    columns: [
      column("product_id", "string", "The product."),
      column("offering_id", "string", "The offering's id within its product."),
      column("name", "string", "The offering's name."),
      column("default", "boolean", "Whether it is the default offering, scored when no control is engaged."),
      column("satisfies", "string", "Ids of the sovereign controls it satisfies, ;-separated."),
    ],
    *rows() {
      for (const p of release.definition.products)
        for (const o of p.offerings) yield [p.productId, o.id, o.name, o.default === true, joined(o.satisfies)];
    },
  };
}

function indicatorsTable(release: ReleaseData): TableBody {
  return {
    description: "The methodology's indicators per axis: kind, direction, unit, levels and weight.",
    columns: [
      column("axis", "string", "innovation, control or scale."),
      column("indicator_id", "string", "The indicator's id."),
      column("name", "string", "Its name."),
      column("kind", "string", "number, boolean or level."),
      column("direction", "string", "For numbers: higher or lower is better."),
      column("unit", "string", "For numbers: the unit, when given."),
      column("levels", "string", "For levels: the levels, worst first, ;-separated."),
      column("weight", "number", "Its weight within its axis."),
      column("source", "string", "Where its values come from, when the methodology says."),
      column("description", "string", "What it measures."),
    ],
    *rows() {
      for (const d of release.dimensions)
        for (const i of d.indicators)
          yield [
            d.id,
            i.id,
            i.name,
            i.kind,
            i.direction ?? null,
            i.unit ?? null,
            i.levels ? joined(i.levels) : null,
            i.weight,
            i.source ?? null,
            i.description ?? null,
          ];
    },
  };
}

function bandsTable(release: ReleaseData): TableBody {
  return {
    description: "The bands of each axis: a band covers [from, to), the last one [from, 100].",
    columns: [
      column("axis", "string", "innovation, control or scale."),
      column("band", "string", "The band's name."),
      column("from", "number", "Its lower bound."),
      column("to", "number", "The next band's lower bound, 100 for the last."),
    ],
    *rows() {
      for (const d of release.dimensions) for (const b of d.bands) yield [d.id, b.name, b.from, b.to];
    },
  };
}

function valuesTable(release: ReleaseData): TableBody {
  return {
    description:
      "Every indicator value the catalogue writes, per offering, with its evidence. A sovereign offering inherits every value it does not write from its product's default offering; an empty value is one not demonstrated (scored 0, a gap).",
    columns: [
      column("product_id", "string", "The product."),
      column("offering_id", "string", "The offering that writes the value."),
      column("indicator_id", "string", "The indicator."),
      column("value", "value", "The value as written: a number, true/false or a level name; empty: not demonstrated."),
      column("evidence_source", "string", "A URL or a document reference."),
      column("evidence_as_of", "string", "The day the value was true or observed (YYYY-MM-DD)."),
      column("evidence_confidence", "string", "verified, vendor-claimed or estimated."),
      column("evidence_note", "string", "A note on the evidence."),
    ],
    *rows() {
      for (const p of release.definition.products)
        for (const o of p.offerings)
          for (const [indicatorId, value] of Object.entries(o.values)) {
            const evidence = o.evidence[indicatorId];
            yield [
              p.productId,
              o.id,
              indicatorId,
              value,
              evidence?.source ?? null,
              evidence?.asOf ?? null,
              evidence?.confidence ?? null,
              evidence?.note ?? null,
            ];
          }
    },
  };
}

function controlsTable(release: ReleaseData): TableBody {
  return {
    description: "The sovereign controls as they were when the release was scored.",
    columns: [
      column("control_id", "string", "The control's id."),
      column("name", "string", "Its name."),
      column("framework", "string", "The public framework it comes from."),
      column("description", "string", "What it requires."),
    ],
    *rows() {
      for (const c of release.controls) yield [c.id, c.name, c.framework, c.description];
    },
  };
}

function geographiesTable(release: ReleaseData): TableBody {
  return {
    description:
      "The countries the release was scored for and the controls each engages: one row per country and control, one row with an empty control for a country that engages none.",
    columns: [
      column("country", "string", "ISO 3166-1 alpha-2 code."),
      column("name", "string", "The country's name."),
      column("control_id", "string", "A control it engages; empty: it engages none."),
    ],
    *rows() {
      for (const g of [...release.geographies].sort((a, b) => (a.country < b.country ? -1 : 1))) {
        if (g.controls.length === 0) yield [g.country, g.name, null];
        for (const id of g.controls) yield [g.country, g.name, id];
      }
    },
  };
}

const ODDS_COLUMNS: ExportColumn[] = [
  column("p_top1", "number", "Share of the sensitivity draws in which it ranks first (a tie shares its places)."),
  column("p_top3", "number", "Share of the draws in which it ranks within the top 3."),
  column("p_top5", "number", "Share of the draws in which it ranks within the top 5."),
  column("tie_group", "integer", "Products with the same group are statistically tied; empty when unavailable."),
];

const oddsCells = (odds: { top1: number; top3: number; top5: number; tieGroup: number | null }): ExportCell[] => [
  odds.top1,
  odds.top3,
  odds.top5,
  odds.tieGroup,
];

const axisUncertaintyColumns = (axis: Axis): ExportColumn[] => [
  column(`${axis}_p5`, "number", `5th percentile of the ${axis} score over the sensitivity draws.`),
  column(`${axis}_p95`, "number", `95th percentile of the ${axis} score.`),
  column(`${axis}_band_settled`, "boolean", `Whether the ${axis} band holds in at least 95 % of the draws.`),
];

function snapshotTable(release: ReleaseData): TableBody {
  return {
    description: "The published scores of every product, with bands, gaps and 90 % intervals (the snapshot reading).",
    columns: [
      ...PRODUCT_COLUMNS,
      ...AXES.map((axis) => column(axis, "number", `Published ${axis} score (0–100).`)),
      ...AXES.map((axis) => column(`${axis}_band`, "string", `The band of the ${axis} score.`)),
      column("gaps", "string", "Indicators the default offering does not demonstrate (scored 0), ;-separated."),
      ...AXES.flatMap(axisUncertaintyColumns),
    ],
    *rows() {
      for (const p of snapshot(release).products)
        yield [
          p.productId,
          p.name,
          p.vendor,
          ...scoreCells(p.scores),
          ...AXES.map((axis) => p.bands[axis]),
          joined(p.gaps),
          ...AXES.flatMap((axis) => {
            const u = p.uncertainty[axis];
            return [u.interval.p5, u.interval.p95, u.bandSettled];
          }),
        ];
    },
  };
}

function capaindexTable(release: ReleaseData): TableBody {
  return {
    description: "The Capability Index: products ranked by published Innovation (competition ranking).",
    columns: [
      column("rank", "integer", "Rank by Innovation (1, 2, 2, 4)."),
      ...PRODUCT_COLUMNS,
      column("innovation", "number", "Published Innovation score."),
      column("band", "string", "Its band."),
      column("rank_best", "integer", "Best rank over 90 % of the sensitivity draws."),
      column("rank_worst", "integer", "Worst rank over 90 % of the draws."),
      column("innovation_p5", "number", "5th percentile of Innovation over the draws."),
      column("innovation_p95", "number", "95th percentile of Innovation."),
      column("band_settled", "boolean", "Whether the band holds in at least 95 % of the draws."),
      ...ODDS_COLUMNS,
    ],
    *rows() {
      for (const p of capaindex(release).products)
        yield [
          p.rank,
          p.productId,
          p.name,
          p.vendor,
          p.innovation,
          p.band,
          p.rankInterval.best,
          p.rankInterval.worst,
          p.innovationInterval.p5,
          p.innovationInterval.p95,
          p.bandSettled,
          ...oddsCells(p.rankOdds),
        ];
    },
  };
}

/** A reading under every country of the release as one table, its columns and cells given once. */
function perCountryTable<P extends Movement>(
  release: ReleaseData,
  description: string,
  reading: (release: ReleaseData, country: string) => { products: P[] },
  body: Fields<Controlled<P>>,
): TableBody {
  const { columns, cells } = fields(controlledHead<P>(), body);
  return {
    description,
    columns,
    *rows() {
      for (const country of countriesOf(release))
        for (const p of reading(release, country).products) yield cells({ country, p });
    },
  };
}

type MaxRow = Controlled<ReturnType<typeof servicemax>["products"][number]>;
/** A Max cell kept only where the product is available under the controls. */
const whenKept =
  (cell: (row: MaxRow) => ExportCell) =>
  (row: MaxRow): ExportCell =>
    row.p.available ? cell(row) : null;

const servicemaxTable = (release: ReleaseData): TableBody =>
  perCountryTable(
    release,
    "The Max reading under every country: products ranked by the Innovation they retain with the country's controls engaged, `off` (published) and `on` (under controls) with the distance. Unavailable products are unranked.",
    (r, country) => servicemax(r, country),
    fields<MaxRow>(
      field(
        "rank",
        "integer",
        "Rank by Innovation retained; empty when unavailable.",
        whenKept(({ p }) => p.rank),
      ),
      availabilityFields(),
      scoreFields("off", "Published score (no controls)", ({ p }) => p.off),
      scoreFields("on", "Score under the controls; empty when unavailable", ({ p }) => (p.available ? p.on : null)),
      distanceFields(({ p }) => (p.available ? p.distance : null)),
      field(
        "rank_best",
        "integer",
        "Best Max rank over 90 % of the sensitivity draws; empty when unavailable.",
        whenKept(({ p }) => p.rankInterval.best),
      ),
      field(
        "rank_worst",
        "integer",
        "Worst Max rank over 90 % of the draws; empty when unavailable.",
        whenKept(({ p }) => p.rankInterval.worst),
      ),
      field(
        "retained_p5",
        "number",
        "5th percentile of the Innovation retained; empty when unavailable.",
        whenKept(({ p }) => p.retainedInterval.p5),
      ),
      field(
        "retained_p95",
        "number",
        "95th percentile of the Innovation retained; empty when unavailable.",
        whenKept(({ p }) => p.retainedInterval.p95),
      ),
      field(
        "seal_level",
        "integer",
        "Overall SEAL level (0–4) of the offering engaged; empty when unavailable or not assessable.",
        ({ p }) => p.seal?.level ?? null,
      ),
      field("seal_weakest", "string", "The objectives at that level, ;-separated.", ({ p }) =>
        p.seal ? joined(p.seal.weakest) : null,
      ),
      { columns: ODDS_COLUMNS, cells: ({ p }) => oddsCells(p.rankOdds) },
    ),
  );

type DeltaRow = Controlled<ReturnType<typeof delta>["products"][number]>;

const deltaTable = (release: ReleaseData): TableBody =>
  perCountryTable(
    release,
    "The Delta under every country: each product's published scores, its scores under the country's controls and the distance between. Its availability columns are the availability matrix in long form (Innovation retained: under_controls_innovation).",
    (r, country) => delta(r, country),
    fields<DeltaRow>(
      availabilityFields(),
      scoreFields("published", "Published score", ({ p }) => p.published),
      scoreFields("under_controls", "Score under the controls; empty when unavailable", ({ p }) =>
        p.available ? p.underControls : null,
      ),
      distanceFields(({ p }) => (p.available ? p.distance : null)),
    ),
  );

function sovereigntyTable(release: ReleaseData): ExportTable {
  return {
    name: "sovereignty",
    description:
      "Each product's EU Cloud Sovereignty Framework profile under every country: the offering assessed, each objective's SEAL level and the overall level, the weakest objective's (the facts behind each level are in the sovereignty profile reading).",
    columns: [
      ...CONTROLLED_HEAD,
      column(
        "available",
        "boolean",
        "Whether an offering satisfies every control of the country (else the default is assessed).",
      ),
      column("offering_id", "string", "The offering assessed."),
      column("overall_level", "integer", "The weakest objective's level; empty when an objective cannot be assessed."),
      column("weakest", "string", "The objectives at that level, ;-separated."),
      ...SOV_OBJECTIVE_IDS.map((o) =>
        column(`${o.toLowerCase().replace("-", "_")}_level`, "integer", `The ${o} level; empty when not assessable.`),
      ),
    ],
    *rows() {
      const byId = new Map(release.definition.products.map((p) => [p.productId, p]));
      for (const country of countriesOf(release))
        for (const [productId, profile] of profilesUnder(release, country)) {
          const product = byId.get(productId);
          if (!product) continue;
          yield [
            country,
            product.productId,
            product.name,
            product.vendor,
            profile.available,
            profile.offering.id,
            profile.overall.level,
            joined(profile.overall.weakest),
            ...profile.objectives.map((o) => o.level),
          ];
        }
    },
  };
}

/** Each table's rows by its name; their order is the order of the files in the manifest. */
const TABLES = {
  products: productsTable,
  offerings: offeringsTable,
  indicators: indicatorsTable,
  bands: bandsTable,
  values: valuesTable,
  controls: controlsTable,
  geographies: geographiesTable,
  snapshot: snapshotTable,
  capaindex: capaindexTable,
  servicemax: servicemaxTable,
  delta: deltaTable,
  sovereignty: sovereigntyTable,
} satisfies Record<string, (release: ReleaseData) => TableBody>;

export type ExportTableName = keyof typeof TABLES;

export const EXPORT_TABLE_NAMES = Object.keys(TABLES) as ExportTableName[];

/** Every table of a release export, in the manifest's order. */
export const exportTables = (release: ReleaseData): ExportTable[] =>
  EXPORT_TABLE_NAMES.map((name) => ({ name, ...TABLES[name](release) }));
