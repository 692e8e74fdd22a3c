/**
 * CSV (RFC 4180) of what a chart shows: the same columns as its table, so a download never
 * disagrees with the screen. Pure; the download itself is in chart-figure.tsx.
 */

export interface Column<Row> {
  /** Header of the table and the CSV. */
  label: string;
  /** The cell: numbers are written as they are (one decimal from the API), never localised. */
  value: (row: Row) => string | number | boolean;
  numeric?: boolean;
}

/** Quote a field when it holds a comma, quote, CR or LF; double the quotes inside. */
export function csvField(value: string | number | boolean): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Header then one line per row, CRLF line ends as RFC 4180 asks. */
export function toCsv<Row>(columns: readonly Column<Row>[], rows: readonly Row[]): string {
  const lines = [
    columns.map((c) => csvField(c.label)),
    ...rows.map((row) => columns.map((c) => csvField(c.value(row)))),
  ];
  return `${lines.map((fields) => fields.join(",")).join("\r\n")}\r\n`;
}

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
