/**
 * A file answered as it is written (a release export): its pieces go out one by one, each after
 * the last was taken by the socket (backpressure), and the event loop is handed back between two
 * pieces, so a 50 MB archive neither fills memory nor keeps other calls waiting. Compressed with
 * the client's coding when its type is worth it (CSV and JSON; a ZIP archive is compressed already).
 */
import type { ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Download } from "../domain/download";
import { type ContentCoding, compressedHeaders, compressingStream, isCompressible } from "./compression";

/** The pieces of a file, the event loop handed back after each. */
export async function* paced(pieces: Iterable<string | Uint8Array>): AsyncGenerator<Buffer> {
  for (const piece of pieces) {
    yield typeof piece === "string"
      ? Buffer.from(piece, "utf8")
      : Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** Headers of a download: its type, its name when saved (letters, digits, dots and hyphens only). */
export const downloadHeaders = (download: Download): Record<string, string> => ({
  "Content-Type": download.mediaType,
  "Content-Disposition": `attachment; filename="${download.fileName.replace(/[^A-Za-z0-9.-]/g, "-")}"`,
});

/**
 * Writes a download on Node's response: resolves when it was sent whole, rejects when the client
 * went away or the file failed midway (the status line is sent by then; the connection is cut,
 * so the client sees an incomplete body, never a complete-looking wrong one).
 */
export async function sendDownload(
  outgoing: ServerResponse,
  status: number,
  headers: Record<string, string>,
  download: Download,
  coding: ContentCoding | null,
): Promise<void> {
  const compress = coding !== null && isCompressible(download.mediaType, Number.POSITIVE_INFINITY);
  outgoing.writeHead(status, compress ? compressedHeaders(headers, coding) : headers);
  const source = Readable.from(paced(download.content()), { objectMode: false });
  if (compress) await pipeline(source, compressingStream(coding), outgoing);
  else await pipeline(source, outgoing);
}

/** The same file as a Fetch body (the app/ route under `next dev`). */
export const downloadBody = (download: Download): ReadableStream<Uint8Array> =>
  Readable.toWeb(Readable.from(paced(download.content()))) as ReadableStream<Uint8Array>;
