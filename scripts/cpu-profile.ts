/**
 * CPU profiling of the server process, for benchmarks: with CPU_PROFILE_DIR set, the V8 profiler
 * runs from start to a graceful stop and writes `serve-<pid>.cpuprofile` there (open it in Chrome
 * DevTools' Performance panel). Node refuses --cpu-prof in
 * NODE_OPTIONS, and `npm start` runs the server as a child; hence this switch.
 */
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import path from "node:path";

export async function startCpuProfile(directory: string | undefined): Promise<() => Promise<void>> {
  if (!directory) return async () => undefined;
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 200 });
  await session.post("Profiler.start");
  return async () => {
    const { profile } = await session.post("Profiler.stop");
    const file = path.join(directory, `serve-${process.pid}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    console.log(`[server] CPU profile written to ${file}`);
    session.disconnect();
  };
}
