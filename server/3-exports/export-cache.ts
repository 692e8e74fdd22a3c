/**
 * A release's export built once and served many times. A release never changes, so its files and
 * its archive are the same bytes at every call: the first download of a release writes them all
 * to disk on a worker thread (./export-worker.ts) and every later one reads them back. The event
 * loop only copies bytes from disk to the socket, and a flood of downloads costs one build.
 *
 * - One build per release at a time on this instance (later callers wait for the same build), on
 *   the worker pool (server/3-workers/pool.ts), which bounds the threads and the tasks waiting: a
 *   build the full pool cannot take is refused at once (WorkersBusy, answered 503).
 * - Written into a temporary folder and renamed into place: a folder that exists is complete, and
 *   instances sharing DATA_DIR never see half a build (the second rename loses, harmlessly).
 * - Named by what makes the bytes: the export format, the market, the release, its publish time
 *   and the origin its citation names.
 * - At most EXPORT_CACHE_RELEASES folders are kept (default 12); the least recently used goes.
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { dataFolder } from "../../db/client";
import { EXPORT_FORMAT_VERSION } from "../2-readings/export";
import type { ReleaseData } from "../2-readings/release";
import { runTask } from "../3-workers/pool";
import { shareRelease } from "../3-workers/shared-release";
import { ARCHIVE_FILE } from "./export-layout";

/** A release's export on disk: the folder and each file's size. */
export interface BuiltFolder {
  folder: string;
  files: Record<string, number>;
}

export { ARCHIVE_FILE };

const INDEX_FILE = ".built.json";

function wholeSetting(name: string, fallback: number): number {
  const value = Number(process.env[name] || fallback);
  return Number.isSafeInteger(value) && value >= 1 ? value : fallback;
}

export const cacheRoot = () => path.join(dataFolder(), "export-cache");

/** The folder's name: what makes the bytes, hashed. */
export const exportKey = (release: ReleaseData, origin: string) =>
  createHash("sha256")
    .update(JSON.stringify([EXPORT_FORMAT_VERSION, release.marketId, release.release, release.lastUpdated, origin]))
    .digest("hex")
    .slice(0, 32);

interface CacheState {
  building: Map<string, Promise<BuiltFolder>>;
}

const state = globalThis as typeof globalThis & { __mpsExportCache?: CacheState };
const cache = (): CacheState => {
  state.__mpsExportCache ??= { building: new Map() };
  return state.__mpsExportCache;
};

/** The folder of a release's export, built if it is not yet (the promise settles when it is ready). */
export function builtExport(release: ReleaseData, origin: string): Promise<BuiltFolder> {
  const key = exportKey(release, origin);
  const { building } = cache();
  let ready = building.get(key);
  if (!ready) {
    ready = findOrBuild(key, release, origin).finally(() => building.delete(key));
    building.set(key, ready);
  }
  return ready;
}

async function findOrBuild(key: string, release: ReleaseData, origin: string): Promise<BuiltFolder> {
  const folder = path.join(cacheRoot(), key);
  const found = await readBuilt(folder);
  if (found) return found;
  return build(key, folder, release, origin);
}

async function readBuilt(folder: string): Promise<BuiltFolder | null> {
  try {
    const files = JSON.parse(await readFile(path.join(folder, INDEX_FILE), "utf8")) as Record<string, number>;
    const now = new Date();
    await utimes(folder, now, now).catch(() => {}); // most recently used
    return { folder, files };
  } catch {
    return null;
  }
}

async function build(key: string, folder: string, release: ReleaseData, origin: string): Promise<BuiltFolder> {
  const root = cacheRoot();
  const temporary = path.join(root, `.${key}-${randomBytes(6).toString("hex")}`);
  await mkdir(temporary, { recursive: true });
  try {
    const { files } = await runTask("export", {
      request: { origin, folder: temporary },
      release: await shareRelease(release),
    });
    await writeFile(path.join(temporary, INDEX_FILE), JSON.stringify(files));
    await rename(temporary, folder).catch(async (error: NodeJS.ErrnoException) => {
      // Another instance put the same folder in place first: theirs holds the same bytes.
      if (error.code !== "ENOTEMPTY" && error.code !== "EEXIST") throw error;
      await rm(temporary, { recursive: true, force: true });
    });
    await evict(root, key);
    return (await readBuilt(folder)) ?? { folder, files };
  } catch (error) {
    await rm(temporary, { recursive: true, force: true });
    throw error;
  }
}

/** Keeps the EXPORT_CACHE_RELEASES most recently used folders (never the one just built). */
async function evict(root: string, keep: string): Promise<void> {
  const limit = wholeSetting("EXPORT_CACHE_RELEASES", 12);
  const names = (await readdir(root)).filter((name) => !name.startsWith("."));
  if (names.length <= limit) return;
  const used = await Promise.all(
    names.map(async (name) => ({ name, at: (await stat(path.join(root, name)).catch(() => null))?.mtimeMs ?? 0 })),
  );
  const oldest = used.filter((u) => u.name !== keep).sort((a, b) => a.at - b.at);
  for (const { name } of oldest.slice(0, names.length - limit))
    await rm(path.join(root, name), { recursive: true, force: true });
}
