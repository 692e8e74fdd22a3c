"use client";
/**
 * Every dashboard chart sits in one of these: a title, the chart for the eye, the same numbers as a
 * table for screen readers and keyboards, and a CSV download of exactly that table. A long list is
 * drawn a page at a time (components/ui/pager.tsx): the chart and the table show the same page, the
 * CSV every row.
 */
import type { ReactNode } from "react";
import { usePaged } from "@/components/ui/pager";
import { TableWrap } from "@/components/ui/table-wrap";
import { type Column, cellText, toCsv } from "@/server/2-formats/csv";

interface ChartFigureProps<Row> {
  id: string;
  title: string;
  /** One sentence saying what the chart shows, read out in place of the picture. */
  summary: string;
  columns: readonly Column<Row>[];
  /**
   * The table's columns, when it condenses the CSV's (a value with its unit, a source with its date
   * in one cell): the same facts, fewer columns to fit the card. Default: `columns`.
   */
  tableColumns?: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /**
   * What is paged: rows with the same key are shown together (a product's cells under every
   * country); default `rowKey`, one row each.
   */
  pageBy?: (row: Row) => string;
  /** What one paged key is, for the pager ("products"); default "rows". */
  rowNoun?: string;
  /**
   * The page, when the chart keeps it itself (its keyboard moves within the page): the keys shown
   * (`pageBy`) and its pagers, above and below. Default: the figure pages its rows.
   */
  paging?: { keys: ReadonlySet<string>; pager: ReactNode; pagerEnd: ReactNode };
  fileName: string;
  /** Controls drawn above the chart (a view switch, a legend). */
  toolbar?: ReactNode;
  /**
   * A table cell drawn as more than text (a product name as a link to its page), by column label;
   * undefined draws the column's text. The CSV still writes the column's value, as text.
   */
  cell?: (label: string, row: Row) => ReactNode;
  /** The table starts open: where the numbers are what the page is for. */
  tableOpen?: boolean;
  /**
   * The chart. A function is given the keys (`pageBy`) of the page of rows shown, so that a chart of
   * a list draws what the table lists; a chart of a whole (a month of days) is drawn as it is.
   */
  children: ReactNode | ((shown: ReadonlySet<string>) => ReactNode);
}

function download(fileName: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: "text/csv;charset=utf-8" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoke after the click has been handled; the browser has its own reference by then.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export function ChartFigure<Row>({
  id,
  title,
  summary,
  columns,
  tableColumns = columns,
  rows,
  rowKey,
  pageBy = rowKey,
  rowNoun = "rows",
  paging,
  fileName,
  toolbar,
  cell,
  tableOpen,
  children,
}: ChartFigureProps<Row>) {
  const own = usePaged([...new Set(rows.map(pageBy))], rowNoun, id);
  const keys = paging?.keys ?? new Set(own.shown);
  const { pager, pagerEnd } = paging ?? own;
  const shown = rows.filter((row) => keys.has(pageBy(row)));
  return (
    <figure className="chart reading" aria-labelledby={`${id}-title`} data-testid={id}>
      <div className="chart-head">
        <figcaption id={`${id}-title`}>{title}</figcaption>
        <div className="chart-tools">
          {toolbar}
          <button
            type="button"
            className="secondary"
            data-testid={`${id}-csv`}
            onClick={() => download(fileName, toCsv(columns, rows))}
          >
            Download CSV
          </button>
        </div>
      </div>
      <p className="chart-summary" id={`${id}-summary`}>
        {summary}
      </p>
      {pager}
      <div className="chart-body" aria-describedby={`${id}-summary`}>
        {typeof children === "function" ? children(keys) : children}
      </div>
      <details open={tableOpen}>
        <summary>{title} as a table</summary>
        <TableWrap label={`${title} as a table`}>
          <table data-testid={`${id}-table`}>
            <thead>
              <tr>
                {tableColumns.map((c) => (
                  <th key={c.label} scope="col" className={c.numeric ? "num" : undefined}>
                    {c.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {shown.map((row) => (
                <tr key={rowKey(row)} data-key={rowKey(row)}>
                  {tableColumns.map((c) => (
                    <td
                      key={c.label}
                      className={c.numeric ? "num" : undefined}
                      data-label={c.label}
                      data-under={(c.numeric && c.under) || undefined}
                    >
                      {cell?.(c.label, row) ?? cellText(c, row)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      </details>
      {pagerEnd}
    </figure>
  );
}
