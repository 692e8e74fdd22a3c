/**
 * The worker task that writes a release's export to disk (./export-cache.ts runs it on the worker
 * pool, server/3-workers/pool.ts): every
 * file of the export, then the ZIP archive, each written as it is generated. All the CPU of an
 * export — the tables' text and the archive's deflate — is spent here, on this thread, so the
 * event loop that answers every organization's calls never waits for it.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import path from "node:path";
import { exportFiles, fileContent, releaseArchive } from "../2-readings/export";
import type { ReleaseData } from "../2-readings/release";
import { openRelease, type SharedRelease } from "../3-workers/shared-release";
import { ARCHIVE_FILE, type BuildRequest, type BuiltExport } from "./export-layout";

/** Writes pieces to a new file; its size in bytes. */
function writeFile(file: string, pieces: Iterable<string | Uint8Array>): number {
  const fd = openSync(file, "wx");
  let bytes = 0;
  try {
    for (const piece of pieces) bytes += writeSync(fd, typeof piece === "string" ? Buffer.from(piece, "utf8") : piece);
  } finally {
    closeSync(fd);
  }
  return bytes;
}

function build(release: ReleaseData, { origin, folder }: BuildRequest): BuiltExport {
  const where = { origin };
  const files: Record<string, number> = {};
  for (const file of exportFiles(release, where))
    files[file.path] = writeFile(path.join(folder, file.path), fileContent(file));
  files[ARCHIVE_FILE] = writeFile(path.join(folder, ARCHIVE_FILE), releaseArchive(release, where));
  return { files };
}

export default function buildExport({
  request,
  release,
}: {
  request: BuildRequest;
  release: SharedRelease;
}): BuiltExport {
  return build(openRelease(release), request);
}
