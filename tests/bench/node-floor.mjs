// The machine's floor for the REST benchmark: a bare Node http server answering with the bytes
// saved in BENCH_FLOOR_DIR (no framework, no database). Prints its URL, then serves until killed.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";

const dir = process.env.BENCH_FLOOR_DIR;
const bodies = new Map(["snapshot", "delta"].map((name) => [name, readFileSync(path.join(dir, `${name}.json`))]));
const server = createServer((request, response) => {
  const body = bodies.get(new URL(request.url, "http://x").searchParams.get("name") ?? "");
  if (!body) return response.writeHead(404).end();
  response.writeHead(200, { "Content-Type": "application/json", "Content-Length": body.length }).end(body);
});
server.listen(0, "127.0.0.1", () => console.log(`http://127.0.0.1:${server.address().port}`));
