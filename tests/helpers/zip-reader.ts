/**
 * Reads a ZIP archive with an implementation other than the one that wrote it (Python's zipfile,
 * on every machine this project runs on): each entry's name, bytes and modification time, after
 * zipfile's own CRC check of every entry.
 */
import { spawnSync } from "node:child_process";

export interface ZipEntryRead {
  name: string;
  bytes: Buffer;
  /** [year, month, day, hour, minute, second] as the archive records it (local DOS time). */
  dateTime: number[];
  compressed: boolean;
}

const READER = `
import base64, json, sys, zipfile, io
archive = zipfile.ZipFile(io.BytesIO(sys.stdin.buffer.read()))
bad = archive.testzip()
if bad is not None:
    sys.exit("CRC mismatch in " + bad)
print(json.dumps([
    {"name": i.filename, "data": base64.b64encode(archive.read(i)).decode(), "dateTime": list(i.date_time),
     "compressed": i.compress_type == zipfile.ZIP_DEFLATED}
    for i in archive.infolist()
]))
`;

export function readZip(bytes: Uint8Array): ZipEntryRead[] {
  const run = spawnSync("python3", ["-c", READER], { input: bytes, maxBuffer: 1024 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`python3 zipfile refused the archive: ${run.stderr.toString()}`);
  return (
    JSON.parse(run.stdout.toString()) as { name: string; data: string; dateTime: number[]; compressed: boolean }[]
  ).map((entry) => ({
    name: entry.name,
    bytes: Buffer.from(entry.data, "base64"),
    dateTime: entry.dateTime,
    compressed: entry.compressed,
  }));
}
