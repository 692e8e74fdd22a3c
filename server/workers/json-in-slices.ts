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
  return parts.join("");
}
