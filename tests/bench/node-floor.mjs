// The machine's floor for the REST benchmarks: a bare Node http server answering with the bytes
// saved in BENCH_FLOOR_DIR (no framework, no database): `/?name=snapshot` the file snapshot.json,
// any other request the fixed body of fixed.json when there is one. Prints its URL, then serves
// until killed.
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";

const dir = process.env.BENCH_FLOOR_DIR;
const bodies = new Map(
  readdirSync(dir)
    .filter((file) => file.endsWith(".json"))
    .map((file) => [file.slice(0, -".json".length), readFileSync(path.join(dir, file))]),
);
const server = createServer((request, response) => {
  const body = bodies.get(new URL(request.url, "http://x").searchParams.get("name") ?? "fixed");
  if (!body) return response.writeHead(404).end();
  response.writeHead(200, { "Content-Type": "application/json", "Content-Length": body.length }).end(body);
});
server.listen(0, "127.0.0.1", () => console.log(`http://127.0.0.1:${server.address().port}`));
