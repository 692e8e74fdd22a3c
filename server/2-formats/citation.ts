/**
 * How to cite a dataset, in BibTeX and in CSL-JSON (the Citation Style Language's data format that
 * Zotero, Pandoc and most reference managers read). Every field is text someone else wrote (a
 * market's name, a methodology version), so BibTeX gets it with its special characters escaped and
 * CSL-JSON through JSON.stringify. Pure.
 */

export interface DatasetCitation {
  /** The citation key: letters, digits and hyphens. */
  key: string;
  title: string;
  /** Who publishes it (an organization, cited as a literal name). */
  publisher: string;
  version: string;
  /** ISO 8601 date or timestamp of publication. */
  issued: string;
  url: string;
  note?: string;
}

/** Text as BibTeX reads it literally: its special characters escaped, braces balanced, one line. */
export function bibtexText(text: string): string {
  const replacements: Record<string, string> = {
    "\\": "\\textbackslash{}",
    "{": "\\{",
    "}": "\\}",
    "&": "\\&",
    "%": "\\%",
    $: "\\$",
    "#": "\\#",
    _: "\\_",
    "~": "\\textasciitilde{}",
    "^": "\\textasciicircum{}",
  };
  return text
    .replace(/[\r\n\t]+/g, " ")
    .replace(/[\\{}&%$#_~^]/g, (c) => replacements[c] ?? c)
    .trim();
}

/** A URL as a BibTeX `url` field takes it verbatim: reserialised, so braces and spaces are %-encoded. */
const bibtexUrl = (url: string) => new URL(url).href.replace(/[{}\\\s]/g, encodeURIComponent);

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

export function bibtex(citation: DatasetCitation): string {
  const date = new Date(citation.issued);
  const fields: [string, string][] = [
    ["title", `{${bibtexText(citation.title)}}`],
    ["author", `{{${bibtexText(citation.publisher)}}}`],
    ["publisher", `{${bibtexText(citation.publisher)}}`],
    ["year", `{${date.getUTCFullYear()}}`],
    ["month", MONTHS[date.getUTCMonth()] as string],
    ["version", `{${bibtexText(citation.version)}}`],
    ["url", `{${bibtexUrl(citation.url)}}`],
    ...(citation.note ? ([["note", `{${bibtexText(citation.note)}}`]] as [string, string][]) : []),
  ];
  const key = citation.key.replace(/[^A-Za-z0-9-]/g, "-");
  return `@misc{${key},\n${fields.map(([name, value]) => `  ${name} = ${value}`).join(",\n")}\n}\n`;
}

/** One CSL-JSON item of type `dataset`. */
export function cslItem(citation: DatasetCitation) {
  const date = new Date(citation.issued);
  return {
    id: citation.key,
    type: "dataset" as const,
    title: citation.title,
    author: [{ literal: citation.publisher }],
    publisher: citation.publisher,
    version: citation.version,
    issued: { "date-parts": [[date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()]] },
    URL: new URL(citation.url).href,
    ...(citation.note ? { note: citation.note } : {}),
  };
}
