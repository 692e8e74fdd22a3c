/**
 * One migrated embedded database to start every test database from. A new PGlite runs initdb
 * (about three seconds of CPU here) before the migrations (under half a second); the suites open
 * some forty embedded databases a run, so each starts from a tarball of one that already ran both.
 *
 * The tarball is cached under node_modules/.cache, named by what made it (PGlite's version and the
 * migration files, byte for byte): a changed migration or PGlite makes a new one, and a copy is
 * never stale. Workers and global setups of one run may make it at once: each writes its own file
 * and renames it into place, and every copy is the same database.
 */
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { openDatabase } from "@/db/client";
import { MIGRATIONS_FOLDER, migrateDatabase } from "@/db/migrate";

const CACHE_FOLDER = path.resolve(import.meta.dirname, "../../node_modules/.cache/mps-test-databases");

/** What the migrated database depends on: PGlite's version and every migration file's bytes. */
function templateKey(): string {
  const hash = createHash("sha256");
  const pglite = path.resolve(import.meta.dirname, "../../node_modules/@electric-sql/pglite/package.json");
  hash.update(JSON.parse(readFileSync(pglite, "utf8")).version);
  for (const entry of readdirSync(MIGRATIONS_FOLDER, { recursive: true, withFileTypes: true }).sort((a, b) =>
    path.join(a.parentPath, a.name).localeCompare(path.join(b.parentPath, b.name)),
  )) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    hash.update(path.relative(MIGRATIONS_FOLDER, file)).update("\0").update(readFileSync(file));
  }
  return hash.digest("hex").slice(0, 16);
}

/** A tarball of an embedded database that ran every migration, made on first use. */
export async function migratedTemplate(): Promise<Blob> {
  const file = path.join(CACHE_FOLDER, `migrated-${templateKey()}.tar`);
  if (!existsSync(file)) {
    const handle = await openDatabase({ kind: "pglite", dataDir: null });
    try {
      await migrateDatabase(handle);
      const client = (handle.db as unknown as { $client: PGlite }).$client;
      const tarball = await client.dumpDataDir("none");
      mkdirSync(CACHE_FOLDER, { recursive: true });
      const partial = `${file}.${process.pid}-${randomBytes(4).toString("hex")}`;
      writeFileSync(partial, Buffer.from(await tarball.arrayBuffer()));
      renameSync(partial, file);
    } finally {
      await handle.close();
    }
  }
  return new Blob([readFileSync(file)]);
}
