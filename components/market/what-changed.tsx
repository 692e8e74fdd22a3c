/**
 * The market page's "What changed" section: the pair of releases compared, then the comparison, or
 * the problem's detail when the pair cannot be compared, or that there is only one release.
 */
import { ComparePicker } from "./compare-picker";
import { type Comparison, ReleaseChanges, type ScoresByProduct } from "./release-changes";
import type { ReleaseOption } from "./release-picker";

/** The comparison the page asked for, or what was wrong with the question, in the API's words. */
export type ComparisonResult = { comparison: Comparison } | { problem: string };

type Pair = { from?: number; to?: number };

/**
 * The pair the pickers show: the one compared; when it could not be, the one asked for, each
 * release defaulting as the API's do (`to` the latest, `from` the one before).
 */
export function shownPair(result: ComparisonResult | undefined, asked: Pair, latest: number) {
  if (result && "comparison" in result)
    return { from: result.comparison.from.release, to: result.comparison.to.release };
  const given = (n: number | undefined) => (n !== undefined && Number.isFinite(n) ? n : undefined);
  const to = given(asked.to) ?? latest;
  return { from: given(asked.from) ?? Math.max(1, to - 1), to };
}

export function WhatChanged({
  releases,
  asked,
  result,
  keep,
  published,
}: {
  /** Newest first, as the changelog lists them. */
  releases: readonly ReleaseOption[];
  /** The pair the URL asked for; NaN for what is not a release number. */
  asked: Pair;
  /** Undefined when there is nothing to compare (one release). */
  result: ComparisonResult | undefined;
  keep: Readonly<Record<string, string>>;
  /** The later release's published scores: the numbers of the products that entered. */
  published?: ScoresByProduct;
}) {
  const pair = shownPair(result, asked, releases[0]?.release ?? 1);
  return (
    <section aria-labelledby="changes" data-testid="changes">
      <h2 id="changes">What changed</h2>
      {releases.length < 2 || !result ? (
        <p data-testid="changes-one-release">
          This market has one release so far: there is nothing to compare it with yet.
        </p>
      ) : (
        <>
          <ComparePicker
            key={`${pair.from}-${pair.to}`}
            releases={releases}
            from={pair.from}
            to={pair.to}
            keep={keep}
          />
          {"problem" in result ? (
            <div className="notice error-notice" role="alert" data-testid="changes-problem">
              <p>
                <strong>Could not compare these releases.</strong> {result.problem}
              </p>
            </div>
          ) : (
            <ReleaseChanges comparison={result.comparison} published={published} />
          )}
        </>
      )}
    </section>
  );
}
