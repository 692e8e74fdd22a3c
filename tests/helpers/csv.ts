/**
 * Reads CSV as RFC 4180 defines it, strictly, to check what the writer (server/2-formats/csv.ts)
 * wrote: records end in CRLF, a quoted field doubles its quotes, and anything else (a quote inside
 * an unquoted field, a lone CR or LF outside quotes, text after a closing quote) throws.
 */

/** A field as read: its text, and whether the file quoted it. */
export interface CsvField {
  text: string;
  quoted: boolean;
}

export function readCsvFields(csv: string): CsvField[][] {
  if (!csv.endsWith("\r\n")) throw new Error("the CSV does not end with CRLF");
  const records: CsvField[][] = [];
  let record: CsvField[] = [];
  let at = 0;
  while (at < csv.length) {
    let field: CsvField;
    if (csv[at] === '"') {
      let text = "";
      at += 1;
      for (;;) {
        const close = csv.indexOf('"', at);
        if (close < 0) throw new Error(`a quoted field is never closed (from character ${at})`);
        text += csv.slice(at, close);
        at = close + 1;
        if (csv[at] !== '"') break;
        text += '"';
        at += 1;
      }
      field = { text, quoted: true };
    } else {
      const end = csv.slice(at).search(/[,\r\n"]/);
      const text = csv.slice(at, at + end);
      at += end;
      if (csv[at] === '"') throw new Error(`a quote inside an unquoted field (character ${at})`);
      field = { text, quoted: false };
    }
    record.push(field);
    if (csv[at] === ",") {
      at += 1;
    } else if (csv.startsWith("\r\n", at)) {
      records.push(record);
      record = [];
      at += 2;
    } else {
      throw new Error(`expected a comma or CRLF after a field (character ${at})`);
    }
  }
  return records;
}

/** The fields' text, record by record. */
export function readCsv(csv: string): string[][] {
  return readCsvFields(csv).map((record) => record.map((field) => field.text));
}
