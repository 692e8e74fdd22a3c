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
import { count, countryNameOrder, score } from "@/components/format";
import { productNameCell } from "@/components/product/product-link";
import { useReadingHref } from "@/components/reading-link";
import { usePaged } from "@/components/ui/pager";
import { inkOn, retainedColour } from "@/server/2-charts/heat-scale";
import { type Column, csvFileName } from "@/server/2-formats/csv";
import type { AppRouter } from "@/server/7-routers/root";

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

/** Whether an available product keeps less Innovation there than it published. */
const keepsLess = (product: Product, cell: Cell) => cell.available && cell.innovationRetained < product.innovation;

type ColumnSort = "name" | "code" | "usable";

/**
 * The matrix's columns in the order shown, those matching the filter (name or code) only. The
 * country the page is read under, when given and shown, comes first: it is the column the rest of
 * the dashboard speaks of.
 */
export function visibleColumns(
  matrix: AvailabilityReading,
  sortBy: ColumnSort,
  filter: string,
  chosen?: string,
): number[] {
  const wanted = filter.trim().toLowerCase();
  const usable = (c: number) => matrix.products.filter((p) => p.cells[c]?.available).length;
  const name = (c: number) => matrix.countries[c]?.name ?? "";
  const code = (c: number) => matrix.countries[c]?.country ?? "";
  const country = (c: number) => ({ country: code(c), name: name(c) });
  return [...matrix.countries.keys()]
    .filter((c) => !wanted || name(c).toLowerCase().includes(wanted) || code(c).toLowerCase() === wanted)
    .sort((a, b) =>
      sortBy === "code"
        ? code(a).localeCompare(code(b))
        : sortBy === "usable"
          ? usable(b) - usable(a) || name(a).localeCompare(name(b), "en")
          : countryNameOrder(country(a), country(b)),
    )
    .sort((a, b) => Number(code(b) === chosen) - Number(code(a) === chosen));
}

interface Position {
  row: number;
  /** −1 is the product's name (a link) at the head of the row. */
  col: number;
}

export function AvailabilityHeatmap({ matrix, country }: { matrix: AvailabilityReading; country?: string }) {
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
  // The columns as shown: sorted (by name by default, as people look countries up) and filtered.
  // A cell's data-col is its place on screen; `order` maps it to the matrix's column.
  const [sortBy, setSortBy] = useState<ColumnSort>("name");
  const [filter, setFilter] = useState("");
  const order = useMemo(() => visibleColumns(matrix, sortBy, filter, country), [matrix, sortBy, filter, country]);
  const [focused, setActive] = useState<Position>({ row: 0, col: 0 });
  const [hovered, setHovered] = useState<Position | null>(null);
  const [touched, setTouched] = useState(false);
  const grid = useRef<HTMLTableElement>(null);
  // A page of products at a time (every country of each): a cell's data-row is its place on the page.
  const { shown: pageProducts, pager, pagerEnd } = usePaged(matrix.products, "products", "availability-map");
  const chosen = country;
  const chosenClass = (base: string, code: string) => (code === chosen ? `${base} heat-chosen` : base);

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
  const readingHref = useReadingHref();
  const lastRow = pageProducts.length - 1;
  const lastCol = order.length - 1;
  // The grid keeps one tab stop when a shorter page or a filter leaves the last focus outside it.
  const active = { row: Math.min(focused.row, lastRow), col: Math.min(focused.col, lastCol) };
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
    const product = pageProducts[row];
    if (!product) return null;
    if (col < 0)
      return (
        <>
          <strong>{product.name}</strong> ({product.vendor}): available in {product.availableIn} of{" "}
          {matrix.countries.length} countries; published Innovation {score(product.innovation)}. Enter opens its page.
        </>
      );
    const cell = product.cells[order[col] ?? -1];
    const country = matrix.countries[order[col] ?? -1];
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
        {score(cell.innovationRetained)} of its {score(product.innovation)} Innovation
        {keepsLess(product, cell)
          ? ` (−${(product.innovation - cell.innovationRetained).toFixed(1)}); `
          : ", all of it; "}
        distance {score(cell.distance)}.{country.controls.length === 0 ? " No controls engaged there." : ""}
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
        summary={`${count(matrix.products.length)} products under the controls of ${matrix.countries.length} countries, coloured by the Innovation each keeps there; ${count(unavailable)} of ${count(rows.length)} cells are unavailable (hatched, ×) and ${count(lessened)} keep less than published (corner mark).`}
        columns={columns}
        rows={rows}
        rowKey={(r) => `${r.product.productId}:${r.cell.country}`}
        pageBy={(r) => r.product.productId}
        rowNoun="products"
        paging={{ keys: new Set(pageProducts.map((p) => p.productId)), pager, pagerEnd }}
        fileName={csvFileName(matrix.marketId, `r${matrix.release}`, "availability")}
        cell={(label, r) => productCell(label, r.product)}
      >
        <p className="hint" id="availability-help">
          Tab into the grid, then move with the arrow keys (Home and End: a row's ends). The cell under the pointer or
          the focus is described here:
        </p>
        <p className="heatmap-details" aria-live="polite" data-testid="heatmap-details">
          {shown ? describe(shown) : "Point at, tap or focus a cell for its offering and missing controls."}
        </p>
        <div className="heatmap-controls inline-form">
          <label>
            Order of the countries
            <select
              value={sortBy}
              onChange={(event) => setSortBy(event.target.value as ColumnSort)}
              data-testid="heatmap-sort"
            >
              <option value="name">By name</option>
              <option value="code">By code</option>
              <option value="usable">Most products usable first</option>
            </select>
          </label>
          <label>
            Find a country
            <input
              type="search"
              value={filter}
              onChange={(event) => setFilter(event.target.value)}
              placeholder="name or code"
              data-testid="heatmap-filter"
            />
          </label>
          <p className="hint" data-testid="heatmap-count" aria-live="polite">
            {order.length === matrix.countries.length
              ? `All ${order.length} countries${chosen && order.length > 0 && matrix.countries[order[0] as number]?.country === chosen ? `, ${chosen} (the country you read under) first` : ""}; the grid scrolls sideways, the product names stay in view.`
              : `${order.length} of ${matrix.countries.length} countries shown.`}
          </p>
        </div>
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
                {order.map((c) => {
                  const country = matrix.countries[c] as Country;
                  return (
                    <th
                      key={country.country}
                      scope="col"
                      className={chosenClass("heat-country", country.country)}
                      data-country={country.country}
                      data-chosen={country.country === chosen || undefined}
                    >
                      <span className="heat-country-name">
                        {country.country === chosen ? `▸ ${country.name} (chosen)` : country.name}
                      </span>
                    </th>
                  );
                })}
              </tr>
            </thead>
            <tbody>
              {pageProducts.map((product, row) => (
                <tr key={product.productId} data-product-id={product.productId}>
                  <th scope="row" className="heat-product">
                    <Link
                      href={readingHref(
                        { to: "product", marketId: matrix.marketId, productId: product.productId },
                        { release: String(matrix.release) },
                      )}
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
                  {order.map((c, col) => {
                    const cell = product.cells[c] as Cell;
                    const country = matrix.countries[c] as Country;
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
                        data-under={cell.country === chosen || undefined}
                        data-state={state}
                        data-retained={cell.innovationRetained}
                        data-testid="heat-cell"
                        className={chosenClass(`heat-cell heat-${state}`, cell.country)}
                        style={
                          cell.available
                            ? {
                                background: retainedColour(cell.innovationRetained),
                                color: inkOn(retainedColour(cell.innovationRetained)),
                              }
                            : undefined
                        }
                        // The name starts with what the cell shows (WCAG 2.5.3), then says it in full.
                        aria-label={
                          cell.available
                            ? `${Math.round(cell.innovationRetained)}: ${product.name}, ${country.name}, keeps ${score(cell.innovationRetained)} of ${score(product.innovation)}`
                            : `× ${product.name}, ${country.name}: unavailable`
                        }
                        // A tap focuses the cell (it has a tabindex), so touch screens get its details too.
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
