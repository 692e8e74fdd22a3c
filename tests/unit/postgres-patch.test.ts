/**
 * patches/postgres+3.4.9.patch, applied by `npm install` (postinstall: patch-package): postgres.js
 * wrote a pending chunk to a connection whose socket was already gone (killed or shut down) and
 * crashed the whole process with an uncaught TypeError; patched, the connection's queries fail
 * with CONNECTION_CLOSED, which the service answers as 503 `unavailable`. And a query that failed
 * after some rows arrived left its row count to the next query on the connection, which resolved
 * with leading holes (a listed market read as none); tests/faults/postgres-rows.test.ts shows both
 * cases on a real PostgreSQL. And a message that arrived for no query rejected the waiting query with
 * a TypeError (500) instead of a lost connection (503); tests/unit/postgres-stray-message.test.ts
 * shows it. This checks the patch is in the CommonJS build too.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);
const root = path.dirname(path.dirname(path.dirname(require.resolve("postgres"))));

describe("the postgres.js patch", () => {
  it("is installed in both builds the package ships", () => {
    for (const file of ["src/connection.js", "cjs/src/connection.js"]) {
      const source = readFileSync(path.join(root, file), "utf8");
      const nextWrite = source.slice(source.indexOf("function nextWrite(fn)"));
      expect(nextWrite.indexOf("if (!socket)"), file).toBeGreaterThan(0);
      expect(nextWrite.indexOf("if (!socket)")).toBeLessThan(nextWrite.indexOf("socket.write(chunk, fn)"));
      for (const handler of ["function ErrorResponse(x) {", "async function closed(hadError) {"]) {
        const body = source.slice(source.indexOf(handler), source.indexOf(handler) + 400);
        expect(body, `${file}: ${handler}`).toMatch(/\n {4}rows = 0/);
      }
      const dataCatch = source.slice(source.indexOf("handle(incoming.subarray(0, length + 1))"));
      expect(dataCatch.indexOf("if (!query && e instanceof TypeError && socket)"), file).toBeGreaterThan(0);
      expect(dataCatch.indexOf("if (!query && e instanceof TypeError && socket)")).toBeLessThan(
        dataCatch.indexOf("errored(e)"),
      );
    }
  });
});
