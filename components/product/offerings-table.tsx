/**
 * A product's offerings: the default first, then the others as the catalogue writes them; the
 * controls each satisfies (by name), the values each writes instead of the default's with their
 * evidence, and the scores it earns. Names come from the catalogue and stay text.
 */

import { TableWrap } from "@/components/table-wrap";
import { EvidenceBlock, valueText } from "./evidence";
import type { ProductBreakdown } from "./types";

export function OfferingsTable({
  product,
  controlNames,
}: {
  product: ProductBreakdown;
  controlNames: ReadonlyMap<string, string>;
}) {
  const indicators = new Map(
    Object.values(product.axes).flatMap((axis) => axis.indicators.map((i) => [i.indicatorId, i] as const)),
  );
  return (
    <TableWrap label="Offerings">
      <table data-testid="offerings-table">
        <caption className="sr-only">
          Each offering of {product.name}: the controls it satisfies, the values it overrides and its scores.
        </caption>
        <thead>
          <tr>
            <th scope="col">Offering</th>
            <th scope="col">Satisfies</th>
            <th scope="col">Overrides</th>
            <th scope="col" className="num">
              Innovation
            </th>
            <th scope="col" className="num">
              Control
            </th>
            <th scope="col" className="num">
              Scale
            </th>
          </tr>
        </thead>
        <tbody>
          {product.offerings.map((offering) => (
            <tr key={offering.offeringId} data-offering-id={offering.offeringId} data-default={offering.default}>
              <th scope="row">
                {offering.name} {offering.default ? <span className="badge">default</span> : null}
                <div className="hint">
                  <code className="small">{offering.offeringId}</code>
                </div>
              </th>
              <td data-testid="offering-satisfies" data-label="Satisfies">
                {offering.satisfies.length
                  ? offering.satisfies.map((id) => controlNames.get(id) ?? id).join("; ")
                  : "no control"}
              </td>
              <td data-label="Overrides">
                {offering.default ? (
                  <span className="hint">The values of the breakdown above.</span>
                ) : offering.overrides.length === 0 ? (
                  <span className="hint">None: every value is the default offering's.</span>
                ) : (
                  <ul className="overrides">
                    {offering.overrides.map((o) => {
                      const indicator = indicators.get(o.indicatorId);
                      return (
                        <li key={o.indicatorId} data-indicator-id={o.indicatorId}>
                          <strong>{indicator?.name ?? o.indicatorId}</strong>:{" "}
                          {valueText(o.value, indicator?.unit ?? null)}{" "}
                          <span className="hint">
                            (default: {valueText(indicator?.value ?? null, indicator?.unit ?? null)})
                          </span>
                          <div>
                            <EvidenceBlock evidence={o.evidence} />
                          </div>
                        </li>
                      );
                    })}
                  </ul>
                )}
              </td>
              <td className="num" data-label="Innovation">
                {offering.scores.innovation.toFixed(1)}
              </td>
              <td className="num" data-label="Control">
                {offering.scores.control.toFixed(1)}
              </td>
              <td className="num" data-label="Scale">
                {offering.scores.scale.toFixed(1)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
