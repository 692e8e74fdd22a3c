/** What the hostile suites (tests/app/owasp/) attack with: raw requests with any header, and a listener that counts every TCP connection. */
import { request } from "node:http";
import { createServer, type Server } from "node:net";

export interface HostileAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** An HTTP/1.1 request with exactly the headers given (Host, X-Forwarded-Host… included), through node:http. */
export function hostileRequest(
  base: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<HostileAnswer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: options.method ?? "GET",
        headers: {
          ...(options.body ? { "Content-Length": String(Buffer.byteLength(options.body)) } : {}),
          ...options.headers,
        },
        setHost: !(options.headers && Object.keys(options.headers).some((h) => h.toLowerCase() === "host")),
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        response.on("error", reject);
      },
    );
    outgoing.on("error", reject);
    outgoing.end(options.body);
  });
}

/** A TCP listener on loopback that counts the connections made to it (and answers none). */
export interface ConnectionCounter {
  port: number;
  connections(): number;
  close(): Promise<void>;
}

export async function countConnections(host = "127.0.0.1"): Promise<ConnectionCounter> {
  let count = 0;
  const server: Server = createServer((socket) => {
    count += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("no port");
  return {
    port: address.port,
    connections: () => count,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * Asks for a sign-in link for `email` as the sign-in form does (next-auth's CSRF double submit),
 * every request carrying `headers` (a forged Host, a proxy's X-Forwarded-For…).
 */
export async function askForSignInLink(base: string, email: string, headers: Record<string, string> = {}) {
  const csrf = await hostileRequest(base, "/api/auth/csrf", { headers });
  const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string };
  const cookie = ([] as string[])
    .concat(csrf.headers["set-cookie"] ?? [])
    .map((c) => c.split(";")[0])
    .join("; ");
  return hostileRequest(base, "/api/auth/signin/email", {
    method: "POST",
    headers: { ...headers, "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
    body: new URLSearchParams({ email, csrfToken, callbackUrl: "/" }).toString(),
  });
}
