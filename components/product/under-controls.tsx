/**
 * What a product keeps under one country's controls: the offering engaged (or that none meets
 * them, naming the controls it misses), the scores under the controls against the published ones
 * with the distance, and per axis each indicator's change in points, largest loss first.
 */

import { score } from "@/components/format";
import { TableWrap } from "@/components/ui/table-wrap";
import { signed } from "@/server/2-charts/geometry";
import { EvidenceBlock, valueText } from "./evidence";
import { AXES, AXIS_LABELS, type Axis, type AxisBreakdown, type ProductBreakdown, type UnderControls } from "./types";

export function UnderControlsSummary({
  product,
  under,
  countryName,
  controlNames,
}: {
  product: ProductBreakdown;
  under: UnderControls;
  countryName: string;
  controlNames: ReadonlyMap<string, string>;
}) {
  const missing = under.missingControls.map((id) => controlNames.get(id) ?? id);
  return (
    <div data-testid="under-controls" data-available={under.available}>
      {under.controls.length === 0 ? (
        <p className="notice" data-testid="nothing-moves">
          {countryName} engages no sovereign controls, so nothing moves: {product.name} keeps its published scores.
        </p>
      ) : (
        <p>
          {countryName} engages {under.controls.length} control{under.controls.length === 1 ? "" : "s"}:{" "}
          {under.controls.map((c) => c.name).join("; ")}.
        </p>
      )}
      {under.available ? (
        <p data-testid="engaged-offering">
          Engaged offering: <strong>{under.offering?.name}</strong> <code className="small">{under.offering?.id}</code>
        </p>
      ) : (
        <p className="notice error-notice" data-testid="unavailable">
          <strong>Unavailable</strong> — misses <span data-testid="missing-controls">{missing.join("; ")}</span>: no
          offering of {product.name} satisfies every control engaged, so it keeps nothing here.
        </p>
      )}
      <TableWrap label="Scores under the controls">
        <table data-testid="under-controls-scores">
          <caption className="sr-only">
            Published scores, scores under {countryName}'s controls and the distance, per axis.
          </caption>
          <thead>
            <tr>
              <th scope="col">Axis</th>
              <th scope="col" className="num">
                Published
              </th>
              <th scope="col" className="num">
                Under {under.country}'s controls
              </th>
              <th scope="col" className="num">
                Distance
              </th>
            </tr>
          </thead>
          <tbody>
            {AXES.map((axis) => (
              <tr key={axis} data-axis={axis}>
                <th scope="row">{AXIS_LABELS[axis]}</th>
                <td className="num" data-label="Published">
                  {score(product.scores[axis])}
                </td>
                <td className="num" data-label={`Under ${under.country}'s controls`} data-under>
                  {under.available ? score(under.underControls[axis]) : "unavailable"}
                </td>
                <td className="num" data-label="Distance" data-under>
                  {under.available ? signed(under.distance[axis]) : "—"}
                </td>
              </tr>
            ))}
            <tr data-axis="magnitude">
              <th scope="row">Distance (all three axes)</th>
              <td />
              <td />
              <td className="num" data-testid="distance-magnitude" data-label="Distance" data-under>
                {under.available ? score(under.distance.magnitude) : "—"}
              </td>
            </tr>
          </tbody>
        </table>
      </TableWrap>
    </div>
  );
}

/** One axis under the controls: each indicator's contribution published and kept, largest loss first. */
export function AxisChanges({
  axis,
  published,
  under,
}: {
  axis: Axis;
  published: AxisBreakdown;
  under: UnderControls;
}) {
  // A product the country excludes keeps nothing there: no indicator is "kept", so none is listed.
  if (!under.available)
    return (
      <div className="under-axis" data-testid={`changes-${axis}`} data-unavailable-under={under.country}>
        <h4>Under {under.country}&apos;s controls: unavailable</h4>
        <p className="notice error-notice">
          No offering of this product meets every control {under.country} engages, so it keeps nothing there; the
          contributions above are the published ones.
        </p>
      </div>
    );
  const kept = under.axes[axis];
  const before = new Map(published.indicators.map((i) => [i.indicatorId, i]));
  const rows = [...kept.indicators].sort(
    (a, b) =>
      a.change - b.change ||
      (before.get(a.indicatorId)?.name ?? a.indicatorId).localeCompare(
        before.get(b.indicatorId)?.name ?? b.indicatorId,
      ),
  );
  return (
    <div className="under-axis" data-testid={`changes-${axis}`}>
      <h4>
        Under {under.country}'s controls: <span data-under>{score(kept.score)}</span> (published{" "}
        {score(published.score)}, {signed(kept.score - published.score)})
      </h4>
      <TableWrap label="Indicator changes">
        <table data-testid={`changes-${axis}-table`}>
          <caption className="sr-only">
            Each {AXIS_LABELS[axis]} indicator's contribution published and under {under.country}'s controls, largest
            loss first.
          </caption>
          <thead>
            <tr>
              <th scope="col">Indicator</th>
              <th scope="col">Value under controls</th>
              <th scope="col" className="num">
                Published (pts)
              </th>
              <th scope="col" className="num">
                Under controls (pts)
              </th>
              <th scope="col" className="num">
                Change (pts)
              </th>
              <th scope="col">Evidence</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((i) => {
              const base = before.get(i.indicatorId);
              return (
                <tr key={i.indicatorId} data-indicator-id={i.indicatorId} data-change={i.change}>
                  <th scope="row">{base?.name ?? i.indicatorId}</th>
                  <td data-label="Value under controls">
                    {valueText(i.value, base?.unit ?? null)}
                    {i.overridden ? <span className="hint"> (this offering's own value)</span> : null}
                  </td>
                  <td className="num" data-label="Published (pts)">
                    {score(base?.contribution ?? 0)}
                  </td>
                  <td className="num" data-label="Under controls (pts)" data-under>
                    {score(i.contribution)}
                  </td>
                  <td className="num" data-label="Change (pts)" data-under>
                    {signed(i.change)}
                  </td>
                  <td data-label="Evidence">
                    <EvidenceBlock evidence={i.evidence} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableWrap>
    </div>
  );
}
