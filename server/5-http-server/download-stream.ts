/**
 * A file answered as it is written (a release export): its pieces go out one by one, each after
 * the last was taken by the socket (backpressure), and the event loop is handed back between two
 * pieces, so a 50 MB archive neither fills memory nor keeps other calls waiting. Compressed with
 * the client's coding when its type is worth it (CSV and JSON; a ZIP archive is compressed already).
 * A client that takes nothing for EXPORT_STALL_MS is cut off; whatever ends the sending, the
 * download's `done` runs once (its place is free again).
 */
import type { ServerResponse } from "node:http";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Download } from "../1-domain/download";
import { type ContentCoding, compressedHeaders, compressingStream, isCompressible } from "../2-http/compression";

/** The pieces of a file, the event loop handed back after each (a file read from disk streams as it is). */
export async function* paced(
  pieces: Iterable<string | Uint8Array> | AsyncIterable<Uint8Array>,
): AsyncGenerator<Buffer> {
  if (Symbol.asyncIterator in pieces) {
    for await (const piece of pieces) yield Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    return;
  }
  for (const piece of pieces) {
    yield typeof piece === "string"
      ? Buffer.from(piece, "utf8")
      : Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** Headers of a download: its type, its name when saved (letters, digits, dots and hyphens only), its size when known. */
export const downloadHeaders = (download: Download): Record<string, string> => ({
  "Content-Type": download.mediaType,
  "Content-Disposition": `attachment; filename="${download.fileName.replace(/[^A-Za-z0-9.-]/g, "-")}"`,
  ...(download.bytes === undefined ? {} : { "Content-Length": String(download.bytes) }),
});

/** Thrown into the pipeline when the client took nothing for too long. */
export class DownloadStalled extends Error {
  constructor(stallMs: number) {
    super(`the client took nothing for ${stallMs} ms`);
    this.name = "DownloadStalled";
  }
}

/** Passes bytes on, and fails the pipeline when none has moved for `stallMs`. */
function progressWatch(stallMs: number): Transform {
  let timer: NodeJS.Timeout;
  const watch: Transform = new Transform({
    transform(chunk, _encoding, callback) {
      timer.refresh();
      callback(null, chunk);
    },
    flush(callback) {
      clearTimeout(timer);
      callback();
    },
    destroy(error, callback) {
      clearTimeout(timer);
      callback(error);
    },
  });
  timer = setTimeout(() => watch.destroy(new DownloadStalled(stallMs)), stallMs);
  return watch;
}

/**
 * Writes a download on Node's response: resolves when it was sent whole, rejects when the client
 * went away, stalled or the file failed midway (the status line is sent by then; the connection is
 * cut, so the client sees an incomplete body, never a complete-looking wrong one).
 */
export async function sendDownload(
  outgoing: ServerResponse,
  status: number,
  headers: Record<string, string>,
  download: Download,
  coding: ContentCoding | null,
  stallMs: number,
): Promise<void> {
  try {
    const compress = coding !== null && isCompressible(download.mediaType, Number.POSITIVE_INFINITY);
    outgoing.writeHead(status, compress ? compressedHeaders(headers, coding) : headers);
    const source = Readable.from(paced(download.content()), { objectMode: false });
    // The watch sits last: it moves when the socket takes bytes (backpressure reaches it first).
    if (compress) await pipeline(source, compressingStream(coding), progressWatch(stallMs), outgoing);
    else await pipeline(source, progressWatch(stallMs), outgoing);
  } catch (error) {
    outgoing.destroy();
    throw error;
  } finally {
    download.done?.();
  }
}
