/**
 * The project's one CSV writer (RFC 4180): every CSV it writes, now or later, goes through here.
 * Today that is what a dashboard chart shows, with the same columns as its table so a download
 * never disagrees with the screen. Pure: no I/O and no imports from the rest of the project; the
 * download itself is in components/charts/chart-figure.tsx.
 */

/** A cell as a caller hands it over; null: no value (an unavailable product has no score to write). */
export type Cell = string | number | boolean | null;

/** A column of text: names, bands, states, dates. */
export interface TextColumn<Row> {
  /** Header of the table and the CSV. */
  label: string;
  value: (row: Row) => string | boolean;
  numeric?: false;
}

/**
 * A column of numbers: the cell is a JavaScript number and is written as a number, never
 * localised. Give the number itself, not a string of it (`p.innovation`, not `p.innovation.toFixed(1)`).
 */
export interface NumberColumn<Row> {
  /** Header of the table and the CSV. */
  label: string;
  /** null: no value here (the table shows a dash, the CSV an empty field), never a stand-in number. */
  value: (row: Row) => number | null;
  numeric: true;
  /** Digits after the point, as `toFixed` writes them; without it, the number as JavaScript writes it. */
  decimals?: number;
  /**
   * The number is read under the engaged country's controls (a rank, what is kept): null for a
   * product the country excludes, and the table marks the cell so (`data-under`).
   */
  under?: boolean;
}

export type Column<Row> = TextColumn<Row> | NumberColumn<Row>;

/** A number as the table and the CSV write it: to `decimals` places when given, never localised. */
function numberText(value: number, decimals: number | undefined): string {
  return decimals === undefined ? String(value) : value.toFixed(decimals);
}

/** What a cell of `column` reads for `row`, as the table shows it: the CSV's field before quoting. */
export function cellText<Row>(column: Column<Row>, row: Row): string {
  if (!column.numeric) return String(column.value(row));
  const value = column.value(row);
  return value === null ? NO_VALUE : numberText(value, column.decimals);
}

/** What a table shows where a number has no value. */
export const NO_VALUE = "—";

/**
 * Whether a spreadsheet could read this text as a formula (OWASP, CSV Injection): it starts with
 * `=` `+` `-` `@`, a tab, CR, LF or NUL, or a full-width `＝` `＋` `－` `＠`; or those signs come
 * after leading whitespace, which a spreadsheet may trim on import.
 */
const FORMULA_START = /^(?:[\t\r\n\0]|[\s\0]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/;

/**
 * Text as a spreadsheet will read it as text: one that could start a formula gets a single quote
 * in front (`=SUM(A1)` → `'=SUM(A1)`), as OWASP's CSV Injection guidance asks; the rest is as given.
 */
export function neutralised(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/**
 * One field. A number (to `decimals` places when given) and a boolean are written as they are:
 * a JavaScript number writes only digits, a point, a sign and an exponent (or NaN, Infinity),
 * never a formula, so a negative number stays a number. Text is neutralised, whatever column it
 * comes from, so the same digits handed over as a string ("-3.1") get the quote. Then text is
 * quoted when it was neutralised or holds a comma, quote, CR or LF, its quotes doubled (RFC 4180).
 */
export function csvField(value: Cell, decimals?: number): string {
  if (value === null) return "";
  if (typeof value === "number") return numberText(value, decimals);
  if (typeof value === "boolean") return String(value);
  const text = neutralised(value);
  return text !== value || /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Header then one line per row, CRLF line ends as RFC 4180 asks. */
export function toCsv<Row>(columns: readonly Column<Row>[], rows: readonly Row[]): string {
  const lines = [
    columns.map((c) => csvField(c.label)),
    ...rows.map((row) => columns.map((c) => csvField(c.value(row), c.numeric ? c.decimals : undefined))),
  ];
  return csvText(lines);
}

/** Fields already written (csvField) as CSV text: commas between them, CRLF after each line (RFC 4180). */
export const csvText = (lines: readonly (readonly string[])[]): string =>
  `${lines.map((fields) => fields.join(",")).join("\r\n")}\r\n`;

/** A file name from its parts: lowercase words and digits joined by hyphens. */
export function csvFileName(...parts: (string | number | undefined)[]): string {
  const slug = parts
    .filter((p) => p !== undefined && p !== "")
    .map((p) =>
      String(p)
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-|-$/g, ""),
    )
    .join("-");
  return `${slug}.csv`;
}
