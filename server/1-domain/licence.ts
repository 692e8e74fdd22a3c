/**
 * The terms the service's data is offered under, said wherever data leaves it whole: the OpenAPI
 * document's licence and every release export's manifest and citation.
 */
export const DATA_LICENCE = {
  name: "Proprietary",
  /** An SPDX LicenseRef: no SPDX identifier names these terms. */
  identifier: "LicenseRef-Proprietary",
  terms:
    "Licensed to the subscribing organization for its own use. Quote scores and methodology with the release they come from, as the citation gives it.",
} as const;

/** The publisher named in citations. */
export const PUBLISHER = "Market Positioning Service";
