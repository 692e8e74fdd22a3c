/**
 * Work moved off the event loop gives what the event loop would have: two large releases compared
 * on the worker pool (the fan-out of a new release, the weekly summary) and an embed's answers
 * drawn there (its SVG, page, CSV and ETags), through the real pool and its threads.
 */
import { afterAll, describe, expect, it } from "vitest";
import { changes } from "@/server/2-comparisons/release-comparison";
import { compareReleases } from "@/server/3-workers/comparison";
import { closePool, runTask } from "@/server/3-workers/pool";
import { delta } from "@/server/7-procedures/operations/delta";
import { embedAnswers } from "@/server/8-embeds/answers";
import { embedChart } from "@/server/8-embeds/chart";
import { generatedEmbedFacts, generatedGeographies, generatedMarket } from "../helpers/generated-catalogue";
import { scoredRelease } from "../helpers/scored-release";

const geographies = generatedGeographies(8);
const country = geographies.geographies.find((g) => g.controls.length > 1)?.country as string;
// Past WORKER_MIN_PRODUCTS (200): a large market, compared on a thread.
const release = (seed: number, number: number) =>
  scoredRelease(generatedMarket(240, 12, { seed }), geographies.geographies, geographies.controls, {
    draws: 20,
    release: number,
  });
const first = release(31, 1);
const second = release(32, 2);

afterAll(() => closePool());

describe("off the event loop, the same answers", () => {
  it("compares two large releases on a thread exactly as on the event loop", async () => {
    const onLoop = changes(first, second, country);
    const onThread = await compareReleases(first, second, country);
    expect(onLoop.products.length).toBe(240);
    expect(onThread).toEqual(JSON.parse(JSON.stringify(onLoop)));
  });

  it("draws an embed's answers on a thread exactly as on the event loop", async () => {
    const input = delta.input.parse({ marketId: second.marketId, country });
    const payload = await delta.compute(
      { release: second, country, origin: "https://example.org", cached: (_key, f) => f(second) },
      input,
    );
    const facts = generatedEmbedFacts(country, "Generated <b>market</b>");
    const data = { reading: "delta" as const, payload: JSON.parse(JSON.stringify(payload)) };
    const chart = embedChart(data, "bars", "auto", facts);
    const others = [embedChart(data, "map", "auto", facts)];
    const links = {
      page: "https://e/p",
      svg: "https://e/p.svg",
      png: "https://e/p.png",
      csv: "https://e/p.csv",
      oembed: "https://e/o",
    };
    const drawn = { chart, others, links, methodologyKey: "2:https://e" };
    const onThread = await runTask("embed", drawn);
    expect(onThread).toEqual(embedAnswers(drawn));
    expect((onThread as { page: string }).page).toContain("Generated &lt;b&gt;market&lt;/b&gt;");
  });
});
