/**
 * Whole-release exports at size: a generated market of 1,000 products × 50 indicators under 60
 * geographies, published into embedded PGlite, served by `npm start`. What counts is that a
 * download is streamed, never built whole: the server's resident memory is sampled while it sends
 * the ZIP archive (every table, about 80 MB of text before deflate) and the largest table alone,
 * beside the same server sending the availability matrix — a reading built whole in memory as
 * JSON — in the same run. Resident memory also counts garbage not yet collected, so a child process
 * (./export-live.ts) measures what the export keeps alive, after full collections, against the
 * same export built whole.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { sizedApp } from "./sized-app";

/** Resident memory of a process and all its descendants (npm start runs the server as a child), in MiB. */
function treeRssMiB(root: number): number {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  let kib = 0;
  const pending = [root];
  while (pending.length > 0) {
    const pid = pending.pop() as number;
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      kib += Number(match?.[1] ?? 0);
    } catch {
      // gone meanwhile
    }
    pending.push(...(children.get(pid) ?? []));
  }
  return kib / 1024;
}

const ROOT = path.resolve(import.meta.dirname, "../..");
const TSX = path.join(ROOT, "node_modules", "tsx", "dist", "loader.mjs");

/** The live memory of writing the archive, and of the same files held whole (./export-live.ts). */
function liveMemory(products: number, indicators: number, geographies: number) {
  const run = spawnSync(
    process.execPath,
    [
      "--expose-gc",
      "--import",
      TSX,
      "tests/bench/export-live.ts",
      String(products),
      String(indicators),
      String(geographies),
    ],
    { cwd: ROOT, encoding: "utf8", maxBuffer: 16 * 1024 * 1024 },
  );
  if (run.status !== 0) throw new Error(`export-live failed: ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split("\n").at(-1) ?? "{}") as {
    baselineMiB: number;
    streamedPeakMiB: number;
    streamedMs: number;
    pieces: number;
    archiveMiB: number;
    wholeMiB: number;
    textMiB: number;
  };
}

interface Download {
  name: string;
  /** The server's memory just before. */
  restMiB: number;
  ms: number;
  firstByteMs: number;
  bytes: number;
  peakMiB: number;
}

/** Downloads a URL while sampling the server's memory every 10 ms: its time, size and peak. */
async function sampled(name: string, url: string, headers: Record<string, string>, pid: number): Promise<Download> {
  const restMiB = treeRssMiB(pid);
  let peakMiB = restMiB;
  const sampler = setInterval(() => {
    peakMiB = Math.max(peakMiB, treeRssMiB(pid));
  }, 10);
  const started = performance.now();
  let firstByteMs = 0;
  let bytes = 0;
  try {
    const response = await fetch(url, { headers: { ...headers, "Accept-Encoding": "identity" } });
    if (!response.ok || !response.body) throw new Error(`${name}: ${response.status}`);
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      if (bytes === 0) firstByteMs = performance.now() - started;
      bytes += chunk.byteLength;
    }
  } finally {
    clearInterval(sampler);
  }
  return {
    name,
    restMiB,
    ms: performance.now() - started,
    firstByteMs,
    bytes,
    peakMiB: Math.max(peakMiB, treeRssMiB(pid)),
  };
}

export async function exportBench(products = 1000, indicators = 50, geographies = 60) {
  const sized = await sizedApp("export", products, indicators, geographies);
  const { app, headers, market } = sized;
  const pid = app.process.pid as number;
  try {
    // The release loaded and its readings' common work done, as after any first call.
    await (await fetch(`${market}/snapshot`, { headers })).arrayBuffer();
    const atRest = treeRssMiB(pid);
    const manifestStarted = performance.now();
    const manifest = await (await fetch(`${market}/export?release=1`, { headers })).json();
    const manifestMs = performance.now() - manifestStarted;
    const cachedStarted = performance.now();
    await (await fetch(`${market}/export?release=1`, { headers })).arrayBuffer();
    const cachedMs = performance.now() - cachedStarted;
    const textBytes = (manifest.files as { bytes: number }[]).reduce((sum, f) => sum + f.bytes, 0);

    const whole = await sampled("availability (JSON, built whole)", `${market}/availability`, headers, pid);
    const zip = await sampled("ZIP archive (every file)", `${market}/export/zip?release=1`, headers, pid);
    const table = await sampled(
      "servicemax.json (the largest table)",
      `${market}/export/files/servicemax.json?release=1`,
      headers,
      pid,
    );

    console.log(
      `\nRelease exports on a generated market of ${products} products × ${indicators} indicators under ${geographies} geographies (PGlite, the server's whole process tree sampled every 10 ms)`,
    );
    console.log(`  server at rest after one reading: ${atRest.toFixed(0)} MiB`);
    console.log(
      `  manifest: first call ${manifestMs.toFixed(0)} ms (every file measured: ${(textBytes / 2 ** 20).toFixed(1)} MiB of text), then ${cachedMs.toFixed(0)} ms (kept)`,
    );
    for (const d of [whole, zip, table])
      console.log(
        `  ${d.name.padEnd(38)} ${(d.bytes / 2 ** 20).toFixed(1).padStart(6)} MiB sent in ${d.ms.toFixed(0).padStart(5)} ms (first byte ${d.firstByteMs.toFixed(0)} ms); server RSS ${d.restMiB.toFixed(0)} → peak ${d.peakMiB.toFixed(0)} MiB (+${(d.peakMiB - d.restMiB).toFixed(0)}, garbage included)`,
      );
    const kept = liveMemory(products, indicators, geographies);
    console.log(
      `  live memory writing the archive to a slow client (full GC every 32 pieces): +${(kept.streamedPeakMiB - kept.baselineMiB).toFixed(0)} MiB over the release's ${kept.baselineMiB.toFixed(0)} MiB, ${kept.pieces} pieces, ${kept.archiveMiB.toFixed(1)} MiB archive`,
    );
    console.log(
      `  the same files built whole (baseline, same run): +${(kept.wholeMiB - kept.baselineMiB).toFixed(0)} MiB for ${kept.textMiB.toFixed(1)} MiB of text — streaming keeps ${((kept.streamedPeakMiB - kept.baselineMiB) / (kept.wholeMiB - kept.baselineMiB)).toFixed(2)}× of that`,
    );
    return { atRest, manifestMs, whole, zip, table, textBytes, kept };
  } finally {
    await sized.stop();
  }
}
