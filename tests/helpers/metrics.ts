/**
 * Reads Prometheus's text exposition format into samples, so tests check what /metrics serves
 * (not prom-client's objects): `sample(text, "mps_credits_debited_total", { operation: "…" })`.
 */
export type Samples = Map<string, number>;

const key = (name: string, labels: Record<string, string>) =>
  `${name}{${Object.entries(labels)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join(",")}}`;

/** Every sample of an exposition, by metric name and sorted labels. */
export function parseExposition(text: string): Samples {
  const samples: Samples = new Map();
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not an exposition line: ${line}`);
    const [, name = "", rawLabels = "", value = ""] = match;
    const labels: Record<string, string> = {};
    for (const [, k = "", v = ""] of rawLabels.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[k] = JSON.parse(`"${v}"`);
    samples.set(key(name, labels), Number(value));
  }
  return samples;
}

/** One sample's value; undefined when the exposition has no such series. */
export function sample(samples: Samples, name: string, labels: Record<string, string> = {}): number | undefined {
  return samples.get(key(name, labels));
}

/** The sum over every series of a metric whose labels include `labels`. */
export function total(samples: Samples, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const [series, value] of samples) {
    if (!series.startsWith(`${name}{`)) continue;
    const has = ([k, v]: [string, string]) =>
      [`{`, `,`].some((before) => series.includes(`${before}${k}=${JSON.stringify(v)}`));
    if (Object.entries(labels).every(has)) sum += value;
  }
  return sum;
}
