/**
 * A ZIP archive written as it is read (fflate's streaming Zip): each file's text is deflated
 * piece by piece and the archive's bytes are yielded as they come, so an archive of any size is
 * never held whole. The same files give the same bytes: every entry carries the `modified` time
 * given (never the clock), so an archive can be named by an ETag and checked by a digest. Pure.
 */
import { Zip, ZipDeflate } from "fflate";

export interface ZipEntry {
  /** The path inside the archive ("folder/file.csv"). */
  path: string;
  /** The file's content, in pieces. */
  content(): Iterable<string | Uint8Array>;
}

const encoder = new TextEncoder();
const asBytes = (piece: string | Uint8Array) => (typeof piece === "string" ? encoder.encode(piece) : piece);

/** Deflate level 6: zlib's default, the usual balance of size and time. */
const LEVEL = 6;

export function* zipArchive(entries: Iterable<ZipEntry>, modified: Date): Generator<Uint8Array> {
  const ready: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, data) => {
    if (error) failure = error;
    else ready.push(data);
  });
  // fflate calls back synchronously while a piece is pushed: what it made is yielded at once.
  function* drain(): Generator<Uint8Array> {
    if (failure) throw failure;
    while (ready.length > 0) yield ready.shift() as Uint8Array;
  }
  for (const entry of entries) {
    const file = new ZipDeflate(entry.path, { level: LEVEL });
    file.mtime = modified;
    zip.add(file);
    for (const piece of entry.content()) {
      file.push(asBytes(piece));
      yield* drain();
    }
    file.push(new Uint8Array(0), true);
    yield* drain();
  }
  zip.end();
  yield* drain();
}
