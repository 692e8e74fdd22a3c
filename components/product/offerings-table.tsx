/**
 * A product's offerings side by side: one column per offering (the default first, then the others
 * as the catalogue writes them), one row per question: the controls each satisfies (by name), the
 * scores each earns, then every indicator some offering writes a value of its own for — that
 * value where it does (marked), the default's where it does not. The evidence behind each offering's
 * own values is one click away under the table. Names come from the catalogue and stay text.
 * (Written out as a list per offering, values and evidence made the table five screens tall.)
 */

import { score } from "@/components/format";
import { TableWrap } from "@/components/ui/table-wrap";
import { EvidenceBlock, valueText } from "./evidence";
import { AXES, AXIS_LABELS, type ProductBreakdown } from "./types";

type Offering = ProductBreakdown["offerings"][number];

export function OfferingsTable({
  product,
  controlNames,
}: {
  product: ProductBreakdown;
  controlNames: ReadonlyMap<string, string>;
}) {
  const indicators = AXES.flatMap((axis) => product.axes[axis].indicators);
  const overridden = new Set(product.offerings.flatMap((o) => o.overrides.map((v) => v.indicatorId)));
  const rows = indicators.filter((i) => overridden.has(i.indicatorId));
  const own = (offering: Offering, indicatorId: string) =>
    offering.overrides.find((v) => v.indicatorId === indicatorId);
  const withOwnValues = product.offerings.filter((o) => o.overrides.length > 0);
  return (
    <>
      <TableWrap label="Offerings compared">
        <table data-testid="offerings-table" className="offerings">
          <caption className="sr-only">
            The offerings of {product.name} side by side: the controls each satisfies, its scores, and each value an
            offering writes instead of the default's.
          </caption>
          <thead>
            <tr>
              <th scope="col">
                <span className="sr-only">Question</span>
              </th>
              {product.offerings.map((o) => (
                <th key={o.offeringId} scope="col" data-offering-id={o.offeringId} data-default={o.default}>
                  {o.name} {o.default ? <span className="badge">default</span> : null}
                  <div className="hint">
                    <code className="small">{o.offeringId}</code>
                  </div>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <tr data-row="satisfies">
              <th scope="row">Satisfies</th>
              {product.offerings.map((o) => (
                <td key={o.offeringId} data-label={o.name} data-testid="offering-satisfies">
                  {o.satisfies.length ? o.satisfies.map((id) => controlNames.get(id) ?? id).join("; ") : "no control"}
                </td>
              ))}
            </tr>
            {AXES.map((axis) => (
              <tr key={axis} data-row={axis}>
                <th scope="row">{AXIS_LABELS[axis]}</th>
                {product.offerings.map((o) => (
                  <td key={o.offeringId} data-label={o.name} className="num">
                    {score(o.scores[axis])}
                  </td>
                ))}
              </tr>
            ))}
            {rows.map((indicator) => (
              <tr key={indicator.indicatorId} data-indicator-id={indicator.indicatorId}>
                <th scope="row">{indicator.name}</th>
                {product.offerings.map((o) => {
                  const value = own(o, indicator.indicatorId);
                  return (
                    <td key={o.offeringId} data-label={o.name} data-own={value !== undefined}>
                      {value ? (
                        <strong>{valueText(value.value, indicator.unit)}</strong>
                      ) : (
                        <span className="hint">{valueText(indicator.value, indicator.unit)}</span>
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      <p className="hint">
        {rows.length === 0
          ? "No offering writes a value of its own: every offering has the default's values."
          : "A value in bold is the offering's own; the others are the default offering's, which it keeps."}
      </p>
      {withOwnValues.map((o) => (
        <details key={o.offeringId} className="override-evidence" data-testid="offering-evidence">
          <summary>
            Evidence for {o.name}'s {o.overrides.length === 1 ? "own value" : `${o.overrides.length} own values`}
          </summary>
          <ul className="overrides">
            {o.overrides.map((v) => (
              <li key={v.indicatorId}>
                <strong>{indicators.find((i) => i.indicatorId === v.indicatorId)?.name ?? v.indicatorId}</strong>:{" "}
                <EvidenceBlock evidence={v.evidence} />
              </li>
            ))}
          </ul>
        </details>
      ))}
    </>
  );
}
