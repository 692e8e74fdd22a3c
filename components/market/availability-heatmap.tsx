"use client";
/**
 * Availability as a heat map: every product (rows) under every country's controls (columns), each
 * cell coloured by the Innovation the product keeps there, on one sequential scale. An unavailable
 * cell is hatched and crossed, not only coloured; one that keeps less than it published carries a
 * corner mark. The grid is one tab stop: the arrow keys move between cells (Home and End to a row's
 * ends), and the focused or hovered cell's offering and missing controls are written out in a live
 * region. It scrolls sideways inside its own frame, never the page. Data: the availability matrix
 * (GET /v1/markets/{id}/availability), as the signed-in person.
 */
import type { inferRouterOutputs } from "@trpc/server";
import Link from "next/link";
import { type KeyboardEvent, useMemo, useRef, useState } from "react";
import { ChartFigure } from "@/components/charts/chart-figure";
import { productHref, productNameCell } from "@/components/product/product-link";
import { type Column, csvFileName } from "@/server/formats/csv";
import type { AppRouter } from "@/server/procedures/root";

export type AvailabilityReading = inferRouterOutputs<AppRouter>["readings"]["availability"];
type Product = AvailabilityReading["products"][number];
type Cell = Product["cells"][number];
type Country = AvailabilityReading["countries"][number];

/** One cell as the table and the CSV have it: a product under a country. */
interface CellRow {
  product: Product;
  country: Country;
  cell: Cell;
}

/** The sequential scale, light to dark (ColorBrewer's Blues), at 0, 25, 50, 75 and 100 retained. */
const STOPS: readonly (readonly [number, number, number])[] = [
  [239, 243, 255],
  [189, 215, 231],
  [107, 174, 214],
  [49, 130, 189],
  [8, 81, 156],
];

/** The colour of `retained` (0..100) on the scale. */
export function retainedColour(retained: number): string {
  const at = (Math.min(100, Math.max(0, retained)) / 100) * (STOPS.length - 1);
  const low = Math.min(STOPS.length - 2, Math.floor(at));
  const t = at - low;
  const [a, b] = [STOPS[low], STOPS[low + 1]] as [readonly number[], readonly number[]];
  const mix = (k: number) => Math.round((a[k] as number) + ((b[k] as number) - (a[k] as number)) * t);
  return `rgb(${mix(0)}, ${mix(1)}, ${mix(2)})`;
}

/** Dark cells take white digits. */
const darkAt = 55;

/** Whether an available product keeps less Innovation there than it published. */
const keepsLess = (product: Product, cell: Cell) => cell.available && cell.innovationRetained < product.innovation;

interface Position {
  row: number;
  /** −1 is the product's name (a link) at the head of the row. */
  col: number;
}

export function AvailabilityHeatmap({ matrix }: { matrix: AvailabilityReading }) {
  const controlNames = useMemo(
    () => new Map(matrix.countries.flatMap((c) => c.controls.map((k) => [k.id, k.name] as const))),
    [matrix],
  );
  const rows = useMemo(
    () =>
      matrix.products.flatMap((product) =>
        product.cells.map((cell, c) => ({ product, cell, country: matrix.countries[c] as Country })),
      ),
    [matrix],
  );
  const [active, setActive] = useState<Position>({ row: 0, col: 0 });
  const [hovered, setHovered] = useState<Position | null>(null);
  const [touched, setTouched] = useState(false);
  const grid = useRef<HTMLTableElement>(null);

  const missingNames = (cell: Cell) => cell.missingControls.map((id) => controlNames.get(id) ?? id);
  const columns: Column<CellRow>[] = [
    { label: "Product", value: (r) => r.product.name },
    { label: "Country", value: (r) => r.cell.country },
    { label: "Available", value: (r) => (r.cell.available ? "yes" : "no") },
    { label: "Offering", value: (r) => r.cell.offeringId ?? "" },
    { label: "Innovation retained", value: (r) => r.cell.innovationRetained, numeric: true, decimals: 1 },
    { label: "Distance", value: (r) => r.cell.distance, numeric: true, decimals: 1 },
    { label: "Missing controls", value: (r) => missingNames(r.cell).join("; ") },
  ];

  const productCell = productNameCell(matrix.marketId, matrix.release);
  const lastRow = matrix.products.length - 1;
  const lastCol = matrix.countries.length - 1;
  const focusAt = (position: Position) => {
    const target = grid.current?.querySelector<HTMLElement>(`[data-row="${position.row}"][data-col="${position.col}"]`);
    target?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTableElement>) => {
    const from = (event.target as HTMLElement).closest<HTMLElement>("[data-row][data-col]");
    if (!from) return;
    const row = Number(from.dataset.row);
    const col = Number(from.dataset.col);
    const next: Record<string, Position> = {
      ArrowRight: { row, col: Math.min(lastCol, col + 1) },
      ArrowLeft: { row, col: Math.max(-1, col - 1) },
      ArrowDown: { row: Math.min(lastRow, row + 1), col },
      ArrowUp: { row: Math.max(0, row - 1), col },
      Home: { row: event.ctrlKey ? 0 : row, col: -1 },
      End: { row: event.ctrlKey ? lastRow : row, col: lastCol },
    };
    const to = next[event.key];
    if (!to) return;
    event.preventDefault();
    focusAt(to);
  };
  const onFocus = (position: Position) => {
    setActive(position);
    setTouched(true);
  };
  const onHover = (position: Position) => {
    setHovered(position);
    setTouched(true);
  };

  const describe = ({ row, col }: Position) => {
    const product = matrix.products[row];
    if (!product) return null;
    if (col < 0)
      return (
        <>
          <strong>{product.name}</strong> ({product.vendor}): available in {product.availableIn} of{" "}
          {matrix.countries.length} countries; published Innovation {product.innovation.toFixed(1)}. Enter opens its
          page.
        </>
      );
    const cell = product.cells[col];
    const country = matrix.countries[col];
    if (!cell || !country) return null;
    const where = (
      <>
        <strong>{product.name}</strong> in <strong>{country.name}</strong> ({country.country}):{" "}
      </>
    );
    if (!cell.available)
      return (
        <>
          {where}
          <strong>unavailable</strong> — misses{" "}
          <span data-testid="heatmap-missing">{missingNames(cell).join("; ")}</span>.
        </>
      );
    return (
      <>
        {where}
        available through the offering <code data-testid="heatmap-offering">{cell.offeringId}</code>; keeps{" "}
        {cell.innovationRetained.toFixed(1)} of its {product.innovation.toFixed(1)} Innovation
        {keepsLess(product, cell)
          ? ` (−${(product.innovation - cell.innovationRetained).toFixed(1)}); `
          : ", all of it; "}
        distance {cell.distance.toFixed(1)}.{country.controls.length === 0 ? " No controls engaged there." : ""}
      </>
    );
  };
  const shown = hovered ?? (touched ? active : null);
  const unavailable = rows.filter((r) => !r.cell.available).length;
  const lessened = rows.filter((r) => keepsLess(r.product, r.cell)).length;

  return (
    <section aria-labelledby="availability" data-testid="availability">
      <h2 id="availability">Availability</h2>
      <p className="hint">
        Every product under every country's controls at once: what each keeps of its Innovation, where it is
        unavailable, and the offering engaged.
      </p>
      <ChartFigure
        id="availability-map"
        title="Availability by country"
        summary={`${matrix.products.length} products under the controls of ${matrix.countries.length} countries, coloured by the Innovation each keeps there; ${unavailable} of ${rows.length} cells are unavailable (hatched, ×) and ${lessened} keep less than published (corner mark).`}
        columns={columns}
        rows={rows}
        rowKey={(r) => `${r.product.productId}:${r.cell.country}`}
        fileName={csvFileName(matrix.marketId, `r${matrix.release}`, "availability")}
        cell={(label, r) => productCell(label, r.product)}
      >
        <p className="hint" id="availability-help">
          Tab into the grid, then move with the arrow keys (Home and End: a row's ends). The cell under the pointer or
          the focus is described here:
        </p>
        <p className="heatmap-details" aria-live="polite" data-testid="heatmap-details">
          {shown ? describe(shown) : "Hover over or focus a cell for its offering and missing controls."}
        </p>
        <div className="heatmap-scroll" data-testid="heatmap-scroll">
          <table
            ref={grid}
            // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: a table with the grid role is the ARIA grid pattern
            role="grid"
            className="heatmap"
            aria-labelledby="availability-map-title"
            aria-describedby="availability-help"
            data-testid="heatmap"
            onKeyDown={onKeyDown}
            onMouseLeave={() => setHovered(null)}
          >
            <thead>
              <tr>
                <th scope="col" className="heat-product">
                  Product
                </th>
                {matrix.countries.map((country) => (
                  <th
                    key={country.country}
                    scope="col"
                    className="heat-country"
                    title={country.name}
                    aria-label={`${country.name} (${country.country})`}
                    data-country={country.country}
                  >
                    {country.country}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {matrix.products.map((product, row) => (
                <tr key={product.productId} data-product-id={product.productId}>
                  <th scope="row" className="heat-product">
                    <Link
                      href={productHref(matrix.marketId, product.productId, { release: matrix.release })}
                      prefetch={false}
                      tabIndex={active.row === row && active.col === -1 ? 0 : -1}
                      data-row={row}
                      data-col={-1}
                      data-testid="product-link"
                      data-product-id={product.productId}
                      onFocus={() => onFocus({ row, col: -1 })}
                      onMouseEnter={() => onHover({ row, col: -1 })}
                    >
                      {product.name}
                    </Link>
                  </th>
                  {product.cells.map((cell, col) => {
                    const country = matrix.countries[col] as Country;
                    const less = keepsLess(product, cell);
                    const state = cell.available ? (less ? "less" : "all") : "unavailable";
                    return (
                      <td
                        key={cell.country}
                        // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: a cell of the ARIA grid above
                        role="gridcell"
                        tabIndex={active.row === row && active.col === col ? 0 : -1}
                        data-row={row}
                        data-col={col}
                        data-country={cell.country}
                        data-state={state}
                        data-retained={cell.innovationRetained}
                        data-testid="heat-cell"
                        className={`heat-cell heat-${state}`}
                        style={
                          cell.available
                            ? {
                                background: retainedColour(cell.innovationRetained),
                                color: cell.innovationRetained >= darkAt ? "#fff" : "var(--fg)",
                              }
                            : undefined
                        }
                        aria-label={`${product.name}, ${country.name}: ${
                          cell.available
                            ? `keeps ${cell.innovationRetained.toFixed(1)} of ${product.innovation.toFixed(1)}`
                            : "unavailable"
                        }`}
                        onFocus={() => onFocus({ row, col })}
                        onMouseEnter={() => onHover({ row, col })}
                      >
                        <span aria-hidden="true">{cell.available ? Math.round(cell.innovationRetained) : "×"}</span>
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <ul className="chart-legend heatmap-legend" data-testid="heatmap-legend">
          <li>
            <span className="heat-ramp" aria-hidden="true" />
            Innovation kept, 0 → 100 (the number in the cell)
          </li>
          <li>
            <span className="heat-swatch heat-less" aria-hidden="true" />
            corner mark: keeps less than it published
          </li>
          <li>
            <span className="heat-swatch heat-unavailable" aria-hidden="true">
              ×
            </span>
            hatched and ×: unavailable, no offering meets the controls
          </li>
        </ul>
      </ChartFigure>
    </section>
  );
}
