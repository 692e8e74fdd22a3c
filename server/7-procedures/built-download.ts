/**
 * A release export's download, built before it is charged: the release's export folder is found
 * or built (server/3-exports/export-cache.ts) and the file is read back from it as it is sent.
 */
import { createReadStream } from "node:fs";
import path from "node:path";
import type { Download } from "../1-domain/download";
import { downloadNotReady, tooManyDownloads } from "../1-errors/api-error";
import type { ReleaseData } from "../2-readings/release";
import { ARCHIVE_FILE, builtExport } from "../3-exports/export-cache";
import { downloadSlots } from "../3-limits/download-slots";
import { requestLimits } from "../3-limits/request-limits";
import type { ApiContext } from "./context";

/** `file`: a table file's name, or "archive" for the whole release as a ZIP archive. */
export function builtDownload(
  release: ReleaseData,
  origin: string,
  fileName: string,
  mediaType: string,
  file: string,
): Download {
  const name = file === "archive" ? ARCHIVE_FILE : file;
  const unbuilt = (): never => {
    throw new Error(`${fileName} is sent once built`);
  };
  return {
    fileName,
    mediaType,
    content: unbuilt,
    build: async () => {
      const { folder, files } = await builtExport(release, origin);
      const bytes = files[name];
      if (bytes === undefined) throw new Error(`the built export has no ${name}`);
      const where = path.join(folder, name);
      return { fileName, mediaType, bytes, content: () => createReadStream(where, { highWaterMark: 64 * 1024 }) };
    },
  };
}

/**
 * The download a call sends, ready: a large file takes a download place for the organization
 * (held until its last byte is sent: `done`), and is built within the download's deadline,
 * EXPORT_DEADLINE_MS from now (longer than a reading's: a large release takes seconds to build
 * once). Past it the call answers 503, uncharged, and the build goes on for the next call.
 */
export async function readyDownload(ctx: ApiContext, download: Download): Promise<Download> {
  if (!download.build) return download;
  const limits = requestLimits();
  const slot = downloadSlots().take(ctx.facts.organizationId ?? "");
  if (!slot.ok)
    throw tooManyDownloads(
      slot.refusal,
      slot.refusal === "organization" ? limits.exportMaxPerOrganization : limits.exportMaxTotal,
    );
  // ctx is this procedure's copy of the call's context; the facts are the call's own.
  const deadline = Math.max(ctx.deadline, Date.now() + limits.exportDeadlineMs);
  ctx.facts.extendedDeadline = deadline;
  let timer: NodeJS.Timeout | undefined;
  try {
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(downloadNotReady(limits.exportDeadlineMs)), deadline - Date.now());
    });
    const built = await Promise.race([download.build(), late]);
    return { ...built, done: slot.free };
  } catch (error) {
    slot.free();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
