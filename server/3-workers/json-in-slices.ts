/**
 * JSON text of a large value, made in slices of at most a few milliseconds with the event loop
 * free between them: a 1,000-product release is some 10 MB of JSON (about 60 ms in one
 * `JSON.stringify`), which would stall every other customer's call for that long.
 *
 * The same text as `JSON.stringify(value)` for the plain data it is given (objects, arrays,
 * strings, numbers, booleans, null; `toJSON` honoured, undefined and functions left out of objects
 * and written `null` in arrays), split at arrays' items and objects' keys down to `depth` levels.
 */
const SLICE_MS = 4;

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function jsonInSlices(value: unknown, depth = 3): Promise<string> {
  return (await jsonPartsInSlices(value, depth)).join("");
}

/** The same text in the pieces it was written in: joined, `jsonInSlices`'s; unjoined, encoded in slices too. */
export async function jsonPartsInSlices(value: unknown, depth = 3): Promise<string[]> {
  const parts: string[] = [];
  let sliceStarted = performance.now();
  const breathe = async () => {
    if (performance.now() - sliceStarted < SLICE_MS) return;
    await yieldToLoop();
    sliceStarted = performance.now();
  };
  const write = async (item: unknown, level: number, inArray: boolean): Promise<boolean> => {
    const data =
      item !== null && typeof item === "object" && typeof (item as { toJSON?: unknown }).toJSON === "function"
        ? (item as { toJSON: () => unknown }).toJSON()
        : item;
    if (level >= depth || data === null || typeof data !== "object") {
      const text = JSON.stringify(data);
      if (text === undefined) {
        if (!inArray) return false;
        parts.push("null");
      } else parts.push(text);
      await breathe();
      return true;
    }
    if (Array.isArray(data)) {
      parts.push("[");
      for (let i = 0; i < data.length; i++) {
        if (i > 0) parts.push(",");
        await write(data[i], level + 1, true);
      }
      parts.push("]");
      return true;
    }
    parts.push("{");
    let first = true;
    for (const [key, member] of Object.entries(data)) {
      const mark = parts.length;
      parts.push(`${first ? "" : ","}${JSON.stringify(key)}:`);
      if (await write(member, level + 1, false)) first = false;
      else parts.length = mark;
    }
    parts.push("}");
    return true;
  };
  await write(value, 0, false);
  return parts;
}

/** Characters written per slice: some 1 MB of text, about a millisecond of encoding. */
const CHARACTERS_PER_SLICE = 1 << 20;

/**
 * The text of `pieces`, one after another, as UTF-8 in a SharedArrayBuffer: measured and encoded a
 * slice at a time with the event loop free between them (a 1,000-product release with its
 * sensitivity is tens of megabytes: one `Buffer.from` and copy of it held the event loop for some
 * 300 ms). The bytes are those of `Buffer.from(pieces.join(""), "utf8")`: a slice never ends
 * between the two halves of a surrogate pair.
 */
export async function utf8InSlices(pieces: readonly string[]): Promise<SharedArrayBuffer> {
  let sliceStarted = performance.now();
  const breathe = async () => {
    if (performance.now() - sliceStarted < SLICE_MS) return;
    await yieldToLoop();
    sliceStarted = performance.now();
  };
  // Slices of at most CHARACTERS_PER_SLICE characters, never splitting a pair (a pair split across
  // two pieces is written as two lone halves, as join-then-encode would not: pieces are whole JSON tokens).
  const slices: { text: string; bytes: number }[] = [];
  let total = 0;
  for (const piece of pieces) {
    for (let start = 0; start < piece.length; ) {
      let end = Math.min(piece.length, start + CHARACTERS_PER_SLICE);
      const last = piece.charCodeAt(end - 1);
      if (end < piece.length && last >= 0xd800 && last <= 0xdbff) end--;
      const text = piece.slice(start, end);
      const bytes = Buffer.byteLength(text, "utf8");
      slices.push({ text, bytes });
      total += bytes;
      start = end;
      await breathe();
    }
  }
  const shared = new SharedArrayBuffer(total);
  const view = Buffer.from(shared);
  let offset = 0;
  for (const slice of slices) {
    offset += view.write(slice.text, offset, "utf8");
    await breathe();
  }
  return shared;
}
