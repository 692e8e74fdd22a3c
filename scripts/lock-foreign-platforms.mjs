// The npm registry reachable here serves only the Linux builds of some platform-specific optional
// packages (Biome's CLI, Next's SWC). npm then leaves the other platforms out of package-lock.json,
// and `npm ci` refuses the lock as out of sync. This records each missing one as an optional entry
// restricted to its own os/cpu/libc, which npm skips on every other platform without fetching it.
// Run after `npm install` changes the lock: `node scripts/lock-foreign-platforms.mjs`.
import { readFileSync, writeFileSync } from "node:fs";

const LOCK = "package-lock.json";
const lock = JSON.parse(readFileSync(LOCK, "utf8"));
const packages = lock.packages;

function platformOf(name) {
  const suffix = name.split("/").pop();
  const os = ["android", "darwin", "linux", "win32", "freebsd"].find((o) => suffix.includes(o));
  const cpu = ["arm64", "x64", "ia32", "arm"].find((c) => suffix.includes(c));
  if (!os || !cpu) return undefined;
  const libc = os === "linux" ? (suffix.includes("musl") ? "musl" : "glibc") : undefined;
  return { cpu: [cpu], os: [os], ...(libc ? { libc: [libc] } : {}) };
}

let added = 0;
for (const [path, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const target = `node_modules/${name}`;
    if (packages[target] || packages[`${path}/node_modules/${name}`]) continue;
    const platform = platformOf(name);
    if (!platform) continue;
    packages[target] = { version, ...(entry.dev ? { dev: true } : {}), optional: true, ...platform };
    added++;
  }
}
const sorted = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a < b ? -1 : 1)),
);
lock.packages = sorted;
writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`recorded ${added} platform package(s) the registry does not serve`);
