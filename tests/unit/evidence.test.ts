/**
 * Evidence in a market file (docs/catalogue.md, Evidence): the schema of one piece of evidence,
 * the cross-checks that tie it to a value the offering writes, the rule that it is not dated after
 * the release, and the report of values without evidence. Pure: files are text in the test.
 */
import { describe, expect, it } from "vitest";
import {
  CatalogFileError,
  type CatalogIssue,
  checkEvidenceDates,
  checkMarket,
  evidenceDateIssues,
  formatPath,
  missingEvidence,
  missingEvidenceIssues,
  parseDefinition,
} from "@/server/1-domain/definition-checks";
import type { Control, MarketFile } from "@/server/1-domain/market-definition";

const CONTROLS: Control[] = [{ id: "eu-data-residency", name: "EU", description: "d", framework: "f" }];

/**
 * A small market: `lima` has a default offering (`public`) and an EU offering that overrides
 * `bench` and `residency` and inherits the rest; `mike` has one offering with a gap (`sla: null`).
 * `evidence` lines are spliced into the offerings by the tests.
 */
function marketText(evidence: { public?: string; eu?: string; mike?: string } = {}): string {
  const block = (lines: string | undefined) => (lines ? `        evidence:\n${lines}` : "");
  return `kind: market
marketId: small
name: Small
description: d
methodologyVersion: "1"
methodology: m
dimensions:
  innovation: { name: I, description: d, bands: [{ name: Foundation, from: 0 }, { name: Frontier, from: 50 }] }
  control: { name: C, description: d, bands: [{ name: Foundation, from: 0 }, { name: Frontier, from: 50 }] }
  scale: { name: S, description: d, bands: [{ name: Foundation, from: 0 }, { name: Frontier, from: 50 }] }
indicators:
  - { id: bench, axis: innovation, name: Bench, kind: number, direction: higher, weight: 1 }
  - { id: residency, axis: control, name: Residency, kind: boolean, weight: 1 }
  - { id: sla, axis: scale, name: SLA, kind: level, levels: [none, "99.9"], weight: 1 }
products:
  - productId: lima
    name: Lima
    vendor: Lima Co
    offerings:
      - id: public
        name: Public
        default: true
        values: { bench: 80, residency: false, sla: "99.9" }
${block(evidence.public)}      - id: eu
        name: EU
        satisfies: [eu-data-residency]
        values: { bench: 70, residency: true }
${block(evidence.eu)}  - productId: mike
    name: Mike
    vendor: Mike Co
    offerings:
      - id: public
        name: Public
        default: true
        values: { bench: 60, residency: true, sla: null }
${block(evidence.mike)}`;
}

const line = (id: string, body: string) => `          ${id}: ${body}\n`;
const ok = (id: string, asOf = "2026-01-31") =>
  line(id, `{ source: "Demo document (fictional): Lima API reference, §Limits", asOf: ${asOf} }`);

function parseMarket(text: string): MarketFile {
  const definition = parseDefinition("small.yaml", text);
  if (definition.kind !== "market") throw new Error("not a market");
  return definition;
}

/** The issues a file is refused with (structure, then cross-checks), as `path: message` lines. */
function refusal(text: string, releaseDate?: Date): string[] {
  try {
    checkMarket("small.yaml", parseMarket(text), CONTROLS, { releaseDate });
  } catch (error) {
    if (!(error instanceof CatalogFileError)) throw error;
    return error.issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`);
  }
  return [];
}

const at = (offering: number, id: string) => `products[0].offerings[${offering}].evidence.${id}`;

describe("evidence: the schema of one piece of evidence", () => {
  it("accepts source, asOf, confidence and a note, and keeps them as written", () => {
    const definition = parseMarket(
      marketText({
        public:
          line(
            "bench",
            '{ source: "https://example.com/bench?run=7", asOf: 2026-01-31, confidence: verified, note: "Run 7 of 7" }',
          ) +
          ok("residency") +
          line("sla", '{ source: "Lima SLA schedule, §2", asOf: 2025-12-01, confidence: vendor-claimed }'),
      }),
    );
    expect(definition.products[0]?.offerings[0]?.evidence).toEqual({
      bench: {
        source: "https://example.com/bench?run=7",
        asOf: "2026-01-31",
        confidence: "verified",
        note: "Run 7 of 7",
      },
      residency: { source: "Demo document (fictional): Lima API reference, §Limits", asOf: "2026-01-31" },
      sla: { source: "Lima SLA schedule, §2", asOf: "2025-12-01", confidence: "vendor-claimed" },
    });
    // An offering without evidence has an empty map, as releases stored before evidence read.
    expect(definition.products[0]?.offerings[1]?.evidence).toEqual({});
  });

  it("reads an unquoted YYYY-MM-DD as the date string, also where YAML 1.1 makes it a timestamp", () => {
    const text = marketText({ public: ok("bench") });
    expect(parseMarket(text).products[0]?.offerings[0]?.evidence.bench?.asOf).toBe("2026-01-31");
    const yaml11 = `%YAML 1.1\n---\n${text}`;
    expect(parseMarket(yaml11).products[0]?.offerings[0]?.evidence.bench?.asOf).toBe("2026-01-31");
    const tagged = marketText({ public: line("bench", "{ source: s, asOf: !!timestamp 2026-01-31T10:00:00Z }") });
    expect(refusal(tagged)).toEqual([`${at(0, "bench")}.asOf: must be a date written YYYY-MM-DD`]);
  });

  const refused: [string, string, string][] = [
    [
      "a URL with a space in its host",
      '{ source: "https://exa mple", asOf: 2026-01-31 }',
      "source: looks like a URL but is not a valid one",
    ],
    ["an ftp URL", '{ source: "ftp://x", asOf: 2026-01-31 }', "source: a URL source must be http or https, not ftp"],
    ["an empty source", '{ source: " ", asOf: 2026-01-31 }', "source: must not be empty"],
    ["no source", "{ asOf: 2026-01-31 }", "source: "],
    ["a date not written YYYY-MM-DD", "{ source: s, asOf: 2026-1-31 }", "asOf: must be a date written YYYY-MM-DD"],
    ["a date written as a number", "{ source: s, asOf: 20260131 }", "asOf: "],
    ["an impossible date", "{ source: s, asOf: 2026-02-30 }", "asOf: is not a calendar date"],
    ["month 13", "{ source: s, asOf: 2026-13-01 }", "asOf: is not a calendar date"],
    ["no asOf", "{ source: s }", "asOf: "],
    ["an unknown confidence", "{ source: s, asOf: 2026-01-31, confidence: certain }", "confidence: "],
  ];
  it.each(refused)("refuses %s, at the field", (_name, body, expected) => {
    const issues = refusal(marketText({ public: line("bench", body) }));
    expect(issues).toHaveLength(1);
    expect(issues[0]).toContain(`${at(0, "bench")}.${expected}`);
  });

  it("reads a source that only resembles a URL (http//x) as a document reference", () => {
    expect(refusal(marketText({ public: line("bench", '{ source: "http//x", asOf: 2026-01-31 }') }))).toEqual([]);
  });

  it("refuses unknown keys inside evidence, at the evidence", () => {
    const issues = refusal(marketText({ public: line("bench", "{ source: s, asOf: 2026-01-31, url: u }") }));
    expect(issues).toEqual([
      expect.stringMatching(/^products\[0\]\.offerings\[0\]\.evidence\.bench: Unrecognized key.*"url"/),
    ]);
  });
});

describe("evidence: cross-checks with the values", () => {
  it("refuses evidence for an unknown indicator id", () => {
    expect(refusal(marketText({ public: ok("speed") }))).toEqual([
      `${at(0, "speed")}: evidence for unknown indicator id "speed"`,
    ]);
  });

  it("refuses evidence for a value the offering does not write, naming the default for inherited ones", () => {
    // The EU offering inherits sla from the default offering: the default answers for it.
    expect(refusal(marketText({ eu: ok("bench") + ok("sla") }))).toEqual([
      `${at(1, "sla")}: evidence for a value this offering does not write: "sla" is not in its values (an inherited value's evidence belongs to the default offering)`,
    ]);
    const text = marketText({ public: ok("bench") }).replace(
      "values: { bench: 60, residency: true, sla: null }",
      "values: { bench: 60 }",
    );
    const refusedDefault = marketText({ mike: ok("residency") }).replace(
      "values: { bench: 60, residency: true, sla: null }",
      "values: { bench: 60 }",
    );
    expect(refusal(text)).toEqual([]);
    expect(refusal(refusedDefault)).toEqual([
      'products[1].offerings[0].evidence.residency: evidence for a value this offering does not write: "residency" is not in its values',
    ]);
  });

  it("accepts evidence for a null value: null is written (a gap with a reason)", () => {
    expect(refusal(marketText({ mike: ok("sla") }))).toEqual([]);
  });

  it("reports every problem at once, structure first", () => {
    const issues = refusal(marketText({ public: ok("speed") + ok("bench", "2026-02-30"), eu: ok("sla") }));
    expect(issues).toEqual([`${at(0, "bench")}.asOf: is not a calendar date`]);
    const crossChecks = refusal(marketText({ public: ok("speed"), eu: ok("sla") }));
    expect(crossChecks).toHaveLength(2);
  });
});

describe("evidence: not dated after the release", () => {
  const text = marketText({ public: ok("bench", "2026-02-02") + ok("residency", "2026-02-03"), mike: ok("bench") });

  it("refuses asOf after the release's day, at the asOf, with both dates", () => {
    const issues = evidenceDateIssues(parseMarket(text), new Date("2026-02-02T09:00:00Z"));
    expect(issues).toEqual([
      {
        path: ["products", 0, "offerings", 0, "evidence", "residency", "asOf"],
        message:
          "2026-02-03 is after the release date 2026-02-02: evidence cannot postdate the release that publishes it",
      },
    ] satisfies CatalogIssue[]);
  });

  it("compares days in UTC: the release's own day is allowed, whatever its hour or offset", () => {
    const definition = parseMarket(text);
    // 2026-02-02T23:30-05:00 is 2026-02-03 in UTC: both values pass.
    expect(evidenceDateIssues(definition, new Date("2026-02-02T23:30:00-05:00"))).toEqual([]);
    // 2026-02-03T00:30+02:00 is still 2026-02-02 in UTC.
    expect(evidenceDateIssues(definition, new Date("2026-02-03T00:30:00+02:00"))).toHaveLength(1);
    expect(evidenceDateIssues(definition, new Date("2026-02-01T23:59:59Z")).map((i) => formatPath(i.path))).toEqual([
      `${at(0, "bench")}.asOf`,
      `${at(0, "residency")}.asOf`,
    ]);
  });

  it("is part of checkMarket when a release date is given, and throws from checkEvidenceDates", () => {
    expect(refusal(text)).toEqual([]);
    expect(refusal(text, new Date("2026-02-02T09:00:00Z"))).toEqual([
      `${at(0, "residency")}.asOf: 2026-02-03 is after the release date 2026-02-02: evidence cannot postdate the release that publishes it`,
    ]);
    expect(() => checkEvidenceDates("small.yaml", parseMarket(text), new Date("2026-02-02T09:00:00Z"))).toThrow(
      "small.yaml: products[0].offerings[0].evidence.residency.asOf: 2026-02-03 is after the release date 2026-02-02",
    );
  });
});

describe("evidence: values without it", () => {
  it("reports, per indicator, the offerings writing a non-null value without evidence", () => {
    // lima/public has evidence for bench only; lima/eu for residency only; mike has none (sla is null).
    const definition = parseMarket(marketText({ public: ok("bench"), eu: ok("residency") }));
    expect(missingEvidence(definition)).toEqual([
      {
        indicatorId: "bench",
        index: 0,
        // lima/public's evidence does not cover lima/eu's override.
        offerings: [
          { productId: "lima", offeringId: "eu" },
          { productId: "mike", offeringId: "public" },
        ],
        productIds: ["lima", "mike"],
      },
      {
        indicatorId: "residency",
        index: 1,
        offerings: [
          { productId: "lima", offeringId: "public" },
          { productId: "mike", offeringId: "public" },
        ],
        productIds: ["lima", "mike"],
      },
      // sla: lima/public writes it (lima/eu inherits it: counted once, at the default); mike's is null.
      { indicatorId: "sla", index: 2, offerings: [{ productId: "lima", offeringId: "public" }], productIds: ["lima"] },
    ]);
    expect(missingEvidenceIssues(definition).map((i) => `${formatPath(i.path)}: ${i.message}`)).toEqual([
      'indicators[0]: no evidence for 2 values of "bench", in 2 products: lima, mike',
      'indicators[1]: no evidence for 2 values of "residency", in 2 products: lima, mike',
      'indicators[2]: no evidence for 1 value of "sla", in 1 product: lima',
    ]);
  });

  it("reports nothing when every non-null value has evidence", () => {
    const definition = parseMarket(
      marketText({
        public: ok("bench") + ok("residency") + ok("sla"),
        eu: ok("bench") + ok("residency"),
        mike: ok("bench") + ok("residency"),
      }),
    );
    expect(missingEvidence(definition)).toEqual([]);
  });

  it("names the first five products and counts the rest", () => {
    const definition = parseMarket(marketText());
    const base = definition.products[1] as MarketFile["products"][number];
    const products = ["a", "b", "c", "d", "e", "f", "g"].map((id) => ({ ...base, productId: id }));
    const many = { ...definition, products: [...definition.products, ...products] };
    expect(missingEvidenceIssues(many)[0]?.message).toBe(
      'no evidence for 10 values of "bench", in 9 products: lima, mike, a, b, c and 4 more',
    );
  });

  it("reads offerings without an evidence key (releases stored before evidence) as having none", () => {
    const definition = parseMarket(marketText({ public: ok("bench") }));
    const stored = JSON.parse(JSON.stringify(definition), (key, value) => (key === "evidence" ? undefined : value));
    expect(missingEvidence(stored).map((m) => m.offerings.length)).toEqual([3, 3, 1]);
    expect(evidenceDateIssues(stored, new Date("2026-01-01T00:00:00Z"))).toEqual([]);
  });
});
