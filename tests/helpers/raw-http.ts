/** HTTP/1.1 over a bare TCP socket, for requests fetch will not send (oversized headers, garbage). */
import { connect } from "node:net";

export interface RawResponse {
  status: number;
  /** Header names lowercased. */
  headers: Map<string, string>;
  body: string;
}

/**
 * Sends `request` as is to the host and port of `baseUrl` and reads until the server closes the
 * connection (every answer this is for says Connection: close).
 */
export function rawExchange(baseUrl: string, request: string, timeoutMs = 10_000): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const end = raw.indexOf("\r\n\r\n");
      if (end < 0) return reject(new Error(`not an HTTP response: ${JSON.stringify(raw.slice(0, 200))}`));
      const [statusLine = "", ...lines] = raw.slice(0, end).split("\r\n");
      const headers = new Map(
        lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]),
      );
      const body = raw.slice(end + 4);
      const chunked = headers.get("transfer-encoding") === "chunked";
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body: chunked ? dechunk(body) : body });
    });
    socket.write(request);
  });
}

/** The payload of a chunked body (RFC 9112 §7.1), for ASCII and UTF-8 text. */
function dechunk(body: string): string {
  const bytes = Buffer.from(body, "utf8");
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = bytes.indexOf("\r\n", at);
    const size = Number.parseInt(bytes.subarray(at, lineEnd).toString("latin1"), 16);
    if (!(size > 0)) return Buffer.concat(parts).toString("utf8");
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}
