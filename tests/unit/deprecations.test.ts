/**
 * The deprecation policy's mechanism (server/1-domain/deprecations.ts, server/2-http/deprecation-headers.ts,
 * server/8-rest/fact-headers.ts): which calls a deprecation concerns, how HTTP says it, and that the
 * service's own list is well formed. The sample list is written by hand.
 */
import { describe, expect, it } from "vitest";
import { DEPRECATIONS, type Deprecation, deprecationListProblems, deprecationOf } from "@/server/1-domain/deprecations";
import { deprecationHeaders } from "@/server/2-http/deprecation-headers";
import { operationOf } from "@/server/7-procedures/declaration";
import { DECLARATIONS } from "@/server/7-procedures/operations";
import { factHeaders } from "@/server/8-rest/fact-headers";

const SAMPLE: Deprecation[] = [
  {
    operation: "readings.delta",
    parameter: "view",
    since: "2026-06-01",
    sunset: "2027-01-01",
    instead: "draw the chart you want.",
  },
  {
    operation: "readings.delta",
    field: "legacy",
    since: "2026-09-01",
    sunset: "2027-06-01",
    instead: "read `distance`.",
  },
  { operation: "readings.snapshot", since: "2027-01-01", sunset: "2027-08-01", instead: "use the products list." },
];
const NOW = new Date("2026-11-25T12:00:00Z");

describe("which calls a deprecation concerns", () => {
  it("tells a call that uses a deprecated parameter, and every call of an operation with a deprecated field", () => {
    const withView = deprecationOf("readings.delta", ["marketId", "view"], NOW, SAMPLE);
    expect(withView).toEqual({
      since: new Date("2026-06-01"),
      sunset: new Date("2027-01-01"),
      notes: [
        "The parameter `view` is deprecated since 2026-06-01 and may be gone from 2027-01-01: draw the chart you want.",
        "The field `legacy` is deprecated since 2026-09-01 and may be gone from 2027-06-01: read `distance`.",
      ],
    });
    expect(deprecationOf("readings.delta", ["marketId"], NOW, SAMPLE)?.notes).toHaveLength(1);
  });

  it("tells nothing before a deprecation's day, and nothing to other operations", () => {
    expect(deprecationOf("readings.snapshot", ["marketId"], NOW, SAMPLE)).toBeUndefined();
    expect(deprecationOf("readings.snapshot", [], new Date("2027-01-02"), SAMPLE)?.notes[0]).toMatch(/^This operation/);
    expect(deprecationOf("readings.capaindex", ["view"], NOW, SAMPLE)).toBeUndefined();
  });
});

describe("how HTTP says it", () => {
  const notice = deprecationOf("readings.delta", ["view"], NOW, SAMPLE);
  it("as Deprecation (RFC 9745), Sunset (RFC 8594) and a Link to the policy", () => {
    expect(notice && deprecationHeaders(notice)).toEqual({
      Deprecation: `@${Date.UTC(2026, 5, 1) / 1000}`,
      Sunset: "Fri, 01 Jan 2027 00:00:00 GMT",
      Link: '</docs/api>; rel="deprecation", </docs/api>; rel="sunset"',
    });
  });

  it("on every REST answer of the call, a refusal too", () => {
    for (const succeeded of [true, false])
      expect(factHeaders({ notModified: false, deprecation: notice }, succeeded)).toMatchObject({
        Deprecation: "@1780272000",
      });
    expect(factHeaders({ notModified: false }, true)).not.toHaveProperty("Deprecation");
  });
});

describe("the service's deprecation list", () => {
  it("gives each sunset at least six months' notice, and names real operations, parameters and dates", () => {
    expect(deprecationListProblems(DEPRECATIONS)).toEqual([]);
    for (const d of DEPRECATIONS) {
      const declaration = DECLARATIONS.find((candidate) => operationOf(candidate).name === d.operation);
      expect(declaration, d.operation).toBeDefined();
      if (d.parameter) expect(Object.keys(declaration?.input.shape ?? {}), d.operation).toContain(d.parameter);
    }
  });

  it("refuses short notice, unreadable dates, and a parameter and field at once", () => {
    expect(
      deprecationListProblems([
        { operation: "a", since: "2026-01-01", sunset: "2026-03-01", instead: "x" },
        { operation: "b", since: "soon", sunset: "2027-01-01", instead: "x" },
        { operation: "c", parameter: "p", field: "f", since: "2026-01-01", sunset: "2027-01-01", instead: "x" },
      ]),
    ).toEqual([
      "a: sunset 2026-03-01 is less than 183 days after 2026-01-01",
      "b: since and sunset must be dates",
      "c: a parameter or a field, not both",
    ]);
  });
});
