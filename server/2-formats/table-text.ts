/**
 * A table written as text, row by row: CSV (RFC 4180, through the one CSV writer, ./csv.ts) or a
 * JSON array of objects. Both yield text in pieces of about CHUNK_CHARS, so a table of any length
 * is written without ever being held whole. Pure.
 */
import { type Cell, csvField } from "./csv";

/** About this many characters a piece: big enough to write efficiently, small enough to stream. */
export const CHUNK_CHARS = 64 * 1024;

/** Pieces of text from many small strings, each about `size` characters (the last one shorter). */
export function* inPieces(parts: Iterable<string>, size = CHUNK_CHARS): Generator<string> {
  let piece = "";
  for (const part of parts) {
    piece += part;
    if (piece.length >= size) {
      yield piece;
      piece = "";
    }
  }
  if (piece) yield piece;
}

/** The CSV of a table: the header, then a line per row, CRLF line ends. */
export function* csvLines(header: readonly string[], rows: Iterable<readonly Cell[]>): Generator<string> {
  yield `${header.map((name) => csvField(name)).join(",")}\r\n`;
  for (const row of rows) yield `${row.map((cell) => csvField(cell)).join(",")}\r\n`;
}

/** The JSON of a table: an array holding one object per row, keyed by the column names, a row a line. */
export function* jsonLines(names: readonly string[], rows: Iterable<readonly Cell[]>): Generator<string> {
  // Each key written once, with what precedes it ("{" or ","): a row is then its values' JSON between them.
  const keys = names.map((name, i) => `${i === 0 ? "{" : ","}${JSON.stringify(name)}:`);
  let first = true;
  yield "[";
  for (const row of rows) {
    let line = first ? "\n" : ",\n";
    for (let i = 0; i < keys.length; i++) line += keys[i] + JSON.stringify(row[i] ?? null);
    yield `${line}}`;
    first = false;
  }
  yield first ? "]\n" : "\n]\n";
}
