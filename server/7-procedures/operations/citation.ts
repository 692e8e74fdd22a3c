import { z } from "zod";
import { citationFile, downloadOf, MEDIA_TYPES } from "../../2-readings/export";
import { declareDownload } from "../declaration";
import { releaseInput } from "../schemas";

export const citationInput = releaseInput.extend({
  format: z
    .enum(["bibtex", "csl-json"], { error: "format must be bibtex or csl-json" })
    .default("bibtex")
    .meta({ description: "BibTeX (default) or CSL-JSON, as reference managers read them." }),
});

export const citation = declareDownload({
  group: "exports",
  name: "citation",
  scope: null,
  credits: 0,
  path: "/markets/{marketId}/citation",
  summary: "How to cite a release",
  description:
    "A release cited as a dataset: a BibTeX entry (`format=bibtex`, the default) or a CSL-JSON item (`format=csl-json`) naming the market, the release, its methodology version, its date and where to read it. The same text is in every export. `release` defaults to the latest.",
  input: citationInput,
  example: { marketId: "foundation-model-apis", release: 3, format: "bibtex" },
  caching: "per-call",
  releases: "one",
  namedByOrigin: true,
  download: {
    mediaTypes: [MEDIA_TYPES.bibtex, MEDIA_TYPES["csl-json"]],
    file: ({ release, origin }, input) => downloadOf(release, citationFile(release, { origin }, input.format)),
  },
});
