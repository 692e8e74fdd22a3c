/** The frames of a V8 CPU profile (.cpuprofile) that took the most time, by function and by package. */
import { readFileSync } from "node:fs";

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code lives: a package, one of our folders, Node itself, or V8 (native). */
function homeOf(url: string): string {
  const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg) return pkg[1] as string;
  if (url.startsWith("node:")) return "node (core)";
  if (!url) return "(native: V8, GC, idle)";
  const own = url.match(/\/(server|db|app|components|scripts|\.next)\/(.*)$/);
  return own ? `ours: ${own[1]}/${(own[2] as string).split("/")[0]}` : url;
}

const share = (part: number, total: number) => `${((100 * part) / total).toFixed(1).padStart(5)}%`;

/**
 * `window`: only the samples taken between `fromEndMs` + `lengthMs` and `fromEndMs` before the
 * profile's end (the load, without start-up and shut-down).
 */
export function topFrames(file: string, count: number, window?: { fromEndMs: number; lengthMs: number }): string {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const times: number[] = [];
  let at = profile.startTime;
  for (const delta of profile.timeDeltas) {
    at += delta;
    times.push(at);
  }
  const last = profile.endTime - (window?.fromEndMs ?? 0) * 1000;
  const first = window ? last - window.lengthMs * 1000 : Number.NEGATIVE_INFINITY;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const byFunction = new Map<string, number>();
  const byHome = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, index) => {
    const time = times[index] ?? 0;
    if (time < first || time > last) return;
    const spent = profile.timeDeltas[index] ?? 0;
    const frame = nodes.get(id)?.callFrame;
    if (!frame) return;
    total += spent;
    const where = frame.url.split("/").slice(-2).join("/");
    const name = `${frame.functionName || "(anonymous)"}  ${where}${where ? `:${frame.lineNumber + 1}` : ""}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + spent);
    const home = homeOf(frame.url);
    byHome.set(home, (byHome.get(home) ?? 0) + spent);
  });
  const list = (map: Map<string, number>, n: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, spent]) => `  ${share(spent, total)}  ${name}`)
      .join("\n");
  return `self time, ${(total / 1e6).toFixed(1)} s sampled\nby function:\n${list(byFunction, count)}\nby where the code lives:\n${list(byHome, 15)}`;
}
