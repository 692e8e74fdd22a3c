/**
 * A product's sovereignty profile under a country (docs/sovereignty.md): for each objective of the
 * EU Cloud Sovereignty Framework, the SEAL level the catalogue's facts evidence for the offering
 * engaged there, with those facts (source, as-of, confidence), and the overall level — the weakest
 * objective's. Facts are the controls the offering satisfies and its Control-axis indicator values,
 * each read through the mapping the catalogue gives it. Pure: a release in, a profile out.
 *
 * An objective's level is the highest level any one fact evidences for it; one that no fact of the
 * offering evidences is SEAL-0. An objective the release's catalogue maps nothing to cannot be
 * assessed at all: its level is null, and so is the overall level (never a SEAL-0 the catalogue
 * could not have shown otherwise).
 */
import type {
  Control,
  Evidence,
  Indicator,
  IndicatorSov,
  IndicatorValue,
  MarketFile,
  Offering,
} from "../1-domain/market-definition";
import { type SealLevel, SOV_OBJECTIVE_IDS, SOV_OBJECTIVES, type SovObjective } from "../1-domain/sovereignty";
import { defaultOffering } from "../2-scoring/engine";
import { type ReleaseData, UnknownCountryError } from "./release";

/** One fact behind an objective's level. */
export interface SovFact {
  kind: "control" | "indicator";
  /** The control's or the indicator's id. */
  id: string;
  name: string;
  /** For an indicator: the offering's value; for a control: true (it satisfies it). */
  value: IndicatorValue;
  /** The level this fact evidences for the objective (0: it evidences none). */
  level: SealLevel;
  /** The offering whose catalogue entry states it (a sovereign offering inherits its default's values). */
  statedBy: string;
  source: string | null;
  asOf: string | null;
  confidence: NonNullable<Evidence["confidence"]> | null;
  note: string | null;
}

export interface ObjectiveProfile {
  objective: SovObjective;
  name: string;
  /** Null: the catalogue maps no fact to this objective, so it cannot be assessed. */
  level: SealLevel | null;
  /** Every fact of the offering the catalogue maps to it, the highest level first. */
  facts: SovFact[];
}

export interface SovProfile {
  /** The offering assessed: the one engaged under the country, else (unavailable, or no country) the default. */
  offering: { id: string; name: string };
  /** Whether an offering of the product satisfies every control of the country (true with no country). */
  available: boolean;
  objectives: ObjectiveProfile[];
  /** The weakest objective's level, and every objective at it; null when an objective cannot be assessed. */
  overall: { level: SealLevel | null; weakest: SovObjective[] };
}

/** The level an indicator's value evidences for one mapping (0 when it evidences none). */
export function indicatorLevel(indicator: Indicator, mapping: IndicatorSov, value: IndicatorValue): SealLevel {
  if (value === null || value === undefined) return 0;
  if (indicator.kind === "boolean") return value === true ? ((mapping.level ?? 0) as SealLevel) : 0;
  if (indicator.kind === "level")
    return ((typeof value === "string" ? mapping.levels?.[value] : undefined) ?? 0) as SealLevel;
  if (typeof value !== "number") return 0;
  const better = (threshold: number) => (indicator.direction === "lower" ? value <= threshold : value >= threshold);
  return Math.max(0, ...(mapping.thresholds ?? []).filter((t) => better(t.from)).map((t) => t.level)) as SealLevel;
}

/** The objectives the release's catalogue maps any fact to: only these can be assessed. */
export function assessableObjectives(release: Pick<ReleaseData, "controls" | "definition">): Set<SovObjective> {
  const mapped = new Set<SovObjective>();
  for (const control of release.controls) for (const m of control.sov ?? []) mapped.add(m.objective);
  for (const indicator of release.definition.indicators ?? [])
    for (const m of indicator.sov ?? []) mapped.add(m.objective);
  return mapped;
}

const evidenceOf = (evidence: Evidence | undefined) => ({
  source: evidence?.source ?? null,
  asOf: evidence?.asOf ?? null,
  confidence: evidence?.confidence ?? null,
  note: evidence?.note ?? null,
});

/** A release's controls by id and its mapped indicators, looked up once per release however many profiles read them. */
const byIdOf = new WeakMap<readonly Control[], Map<string, Control>>();
const controlsById = (controls: readonly Control[]) => {
  let map = byIdOf.get(controls);
  if (!map) {
    map = new Map(controls.map((c) => [c.id, c]));
    byIdOf.set(controls, map);
  }
  return map;
};
const mappedOf = new WeakMap<MarketFile, Indicator[]>();
const mappedIndicators = (definition: MarketFile) => {
  let list = mappedOf.get(definition);
  if (!list) {
    list = (definition.indicators ?? []).filter((i) => i.sov?.length);
    mappedOf.set(definition, list);
  }
  return list;
};

/** Every fact of one offering, per objective. */
function factsOf(
  definition: MarketFile,
  controls: readonly Control[],
  product: MarketFile["products"][number],
  offering: Offering,
): Map<SovObjective, SovFact[]> {
  const base = defaultOffering(product);
  const byObjective = new Map<SovObjective, SovFact[]>();
  const add = (objective: SovObjective, fact: SovFact) =>
    byObjective.set(objective, [...(byObjective.get(objective) ?? []), fact]);
  const controlById = controlsById(controls);
  for (const id of offering.satisfies ?? []) {
    const control = controlById.get(id);
    for (const m of control?.sov ?? [])
      add(m.objective, {
        kind: "control",
        id,
        name: control?.name ?? id,
        value: true,
        level: m.level as SealLevel,
        statedBy: offering.id,
        ...evidenceOf(offering.controlEvidence?.[id]),
      });
  }
  for (const indicator of mappedIndicators(definition)) {
    const own = Object.hasOwn(offering.values ?? {}, indicator.id);
    const writer = own ? offering : base;
    const value = writer.values[indicator.id];
    if (value === undefined || value === null) continue;
    for (const m of indicator.sov ?? [])
      add(m.objective, {
        kind: "indicator",
        id: indicator.id,
        name: indicator.name,
        value,
        level: indicatorLevel(indicator, m, value),
        statedBy: writer.id,
        ...evidenceOf(writer.evidence?.[indicator.id]),
      });
  }
  return byObjective;
}

/** The profile of one offering of a product. */
export function offeringProfile(
  release: Pick<ReleaseData, "controls" | "definition">,
  product: MarketFile["products"][number],
  offering: Offering,
  assessable: ReadonlySet<SovObjective> = assessableObjectives(release),
): Omit<SovProfile, "available"> {
  const facts = factsOf(release.definition, release.controls, product, offering);
  const objectives = SOV_OBJECTIVE_IDS.map((objective): ObjectiveProfile => {
    const found = [...(facts.get(objective) ?? [])].sort((a, b) => b.level - a.level);
    return {
      objective,
      name: SOV_OBJECTIVES[objective].name,
      level: assessable.has(objective) ? (Math.max(0, ...found.map((f) => f.level)) as SealLevel) : null,
      facts: found,
    };
  });
  const levels = objectives.map((o) => o.level);
  const level = levels.includes(null) ? null : (Math.min(...(levels as number[])) as SealLevel);
  return {
    offering: { id: offering.id, name: offering.name },
    objectives,
    overall: {
      level,
      weakest: level === null ? [] : objectives.filter((o) => o.level === level).map((o) => o.objective),
    },
  };
}

/** What a country engages, per product: the offering assessed and whether it is available. */
function engagedUnder(release: ReleaseData, country: string | null) {
  if (country === null) return undefined;
  const result = release.countries.get(country);
  if (!result) throw new UnknownCountryError(country);
  return new Map(result.products.map((moved) => [moved.productId, moved]));
}

/** The offering a country engages for a product (its default when none, or when no country is given). */
function assessedOffering(
  product: MarketFile["products"][number],
  engaged: ReturnType<typeof engagedUnder>,
): { offering: Offering; available: boolean } {
  if (!engaged) return { offering: defaultOffering(product), available: true };
  const moved = engaged.get(product.productId);
  const offering = moved?.available ? product.offerings.find((o) => o.id === moved.offering?.id) : undefined;
  return { offering: offering ?? defaultOffering(product), available: Boolean(moved?.available) };
}

/** A product's profile under a country (or with no controls); undefined for a product not in the release. */
export function sovereigntyProfile(
  release: ReleaseData,
  productId: string,
  country: string | null,
): SovProfile | undefined {
  const product = release.definition.products.find((p) => p.productId === productId);
  if (!product) return undefined;
  const { offering, available } = assessedOffering(product, engagedUnder(release, country));
  return { ...offeringProfile(release, product, offering), available };
}

/** Every product's profile under a country, in the catalogue's order: what exports and gates read, each mapping looked up once. */
export function* profilesUnder(release: ReleaseData, country: string | null): Generator<[string, SovProfile]> {
  const assessable = assessableObjectives(release);
  const engaged = engagedUnder(release, country);
  for (const product of release.definition.products) {
    const { offering, available } = assessedOffering(product, engaged);
    yield [product.productId, { ...offeringProfile(release, product, offering, assessable), available }];
  }
}

/** Every product's overall level under a country, by productId: what the Max reading and the gates read. */
export function overallLevels(release: ReleaseData, country: string | null): Map<string, SovProfile["overall"]> {
  return new Map([...profilesUnder(release, country)].map(([id, profile]) => [id, profile.overall]));
}
