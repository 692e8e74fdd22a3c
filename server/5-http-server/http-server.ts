/**
 * The app's HTTP server: Next.js through its programmatic API on a Node HTTP server we own, doing
 * what `next start` does (listen at once and hold requests until Next is ready, which runs
 * instrumentation.ts: migrations, seeding, exit-with-parent; on SIGTERM or SIGINT stop accepting,
 * let in-flight requests finish, close Next, exit 143 or 130) and two things it cannot:
 * - every request is stamped, at the door, with whether it came straight from this machine
 *   (server/2-http/peer.ts), for the dev outbox, and with the origin the operator decided
 *   (server/2-http/origin.ts) in place of any origin header the client sent;
 * - a request Node's HTTP parser refuses before any handler runs (headers over 16 KB, a malformed
 *   request line, one that takes too long to arrive) gets our problem+json answer
 *   (server/5-http-server/client-error.ts) instead of Node's bare status line;
 * - the API's paths (/v1, /mcp) are answered straight from Node by the routes given
 *   (server/9-routing/api-routes.ts), in development as in production, skipping Next's request
 *   pipeline, which cost more than the calls themselves. Pages, OAuth and everything else go
 *   through Next.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import next from "next";
import { connectionOrigin, stampOrigin } from "../2-http/origin";
import { stampPeer } from "../2-http/peer";
import { problemOf, problemResponse } from "../2-http/problem";
import { apiSecurityHeaders } from "../2-http/security-headers";
import { clientErrorResponse } from "./client-error";
import { sendFetchResponse } from "./fetch-bridge";
import { databaseHealthy, recentDatabaseFault, unavailablePage } from "./health";

export interface ServeOptions {
  /** The project folder (where .next is). */
  dir: string;
  /** Listened on at every interface, as `next start` does. */
  port: number;
  dev?: boolean;
  /**
   * Whether the operator declared production (server/5-startup/dev-outbox.ts, isProduction), decided
   * before NODE_ENV is defaulted: outside development Next always runs the optimised build with
   * NODE_ENV=production, which alone does not make a deployment production. Only the start line uses it.
   */
  production?: boolean;
  /** Runs once in-flight requests are answered, before Next closes (e.g. stopping job workers). */
  onClose?: () => Promise<void>;
  /** Paths answered straight from Node, before Next sees them (first match wins). */
  routes?: ApiRoute[];
}

export interface ApiRoute {
  /** Whether this route answers the path (the request URL's path, still percent-encoded). */
  matches: (path: string) => boolean;
  /** An answer decided from the request line and headers alone, written at once; undefined: `serve` it. */
  refuse?: (request: IncomingMessage, path: string) => ImmediateAnswer | undefined;
  /** Answers on Node's request and response directly; `origin` is the server's (for request URLs). */
  serve: (request: IncomingMessage, response: ServerResponse, origin: string) => Promise<void>;
}

export interface ImmediateAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Written after this many ms (the connection is held meanwhile, nothing else). */
  holdMs?: number;
  /** Called just before it is written (also when the client left first), e.g. to log the call. */
  onAnswer?: () => void;
}

/** Writes an immediate answer, after its hold; a client that left meanwhile is not written to. */
function sendImmediate(request: IncomingMessage, response: ServerResponse, answer: ImmediateAnswer): void {
  const write = () => {
    answer.onAnswer?.();
    if (response.destroyed) return;
    response.writeHead(answer.status, { ...answer.headers, "Content-Length": Buffer.byteLength(answer.body) });
    response.end(request.method === "HEAD" ? "" : answer.body);
  };
  if (answer.holdMs) setTimeout(write, answer.holdMs);
  else write();
}

/**
 * The path of a request's URL when an API route may answer it. Left to Next: a path that cannot
 * be decoded (the proxy answers it with the API's 400) and one with a trailing slash (Next
 * redirects it to the path without), so both answer exactly as they always have.
 */
function directPath(url: string | undefined): string | undefined {
  if (!url?.startsWith("/")) return undefined;
  const end = url.search(/[?#]/);
  const path = end === -1 ? url : url.slice(0, end);
  if (path.length > 1 && path.endsWith("/")) return undefined;
  try {
    decodeURIComponent(path);
    return path;
  } catch {
    return undefined;
  }
}

/** An API route's handler failed instead of answering (it never should): say so as the API does. */
async function answerDirectFailure(request: IncomingMessage, response: ServerResponse, origin: string) {
  const problem = problemOf("internal_error", "The service failed unexpectedly.", { origin, requestId: randomUUID() });
  const answer = problemResponse(problem, { "Cache-Control": "no-store" });
  for (const [name, value] of Object.entries(apiSecurityHeaders(false))) answer.headers.set(name, value);
  await sendFetchResponse(answer, response, request.method ?? "GET");
}

/** How long a refused connection stays half-closed, so the client reads our answer, not a reset. */
const LINGER_MS = 2_000;

const answered = new WeakSet<Socket>();

/**
 * Answers a request Node refused, on its socket: there is no request or response object. The
 * parser reports every later chunk of the same connection again; only the first is answered.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (answered.has(socket)) return;
  answered.add(socket);
  // A response in flight on this connection (pipelining) must not be corrupted: just close.
  const inFlight = (socket as Socket & { _httpMessage?: unknown })._httpMessage;
  if (error.code === "ECONNRESET" || !socket.writable || inFlight) {
    socket.destroy();
    return;
  }
  const origin = connectionOrigin(socket.localAddress, socket.localPort);
  socket.end(clientErrorResponse(error.code, { origin, requestId: randomUUID() }));
  // Half-closed: what the client still sends is read and dropped until it closes, or until the
  // linger ends; closing with unread data would reset the connection and could lose the answer.
  const linger = setTimeout(() => socket.destroy(), LINGER_MS);
  linger.unref();
  socket.once("close", () => clearTimeout(linger));
}

/** Starts serving; resolves once listening (Next may still be preparing: requests wait for it). */
/**
 * A page that fails (5xx) while the database is known to be faulty failed because of it: it is
 * answered with the same readable 503 page as when the probe saw the fault first (Next's own error
 * page would need JavaScript to say anything).
 */
function answerDatabaseFaultsAs503(response: ServerResponse): void {
  const writeHead = response.writeHead.bind(response) as (...args: unknown[]) => ServerResponse;
  const write = response.write.bind(response) as (...args: unknown[]) => boolean;
  const end = response.end.bind(response) as (...args: unknown[]) => ServerResponse;
  let replaced = false;
  // Decided before the first byte: Next's status, and whether the database was at fault lately.
  const replaces = (status: number) => {
    if (!replaced && !response.headersSent && status >= 500 && recentDatabaseFault()) replaced = true;
    return replaced;
  };
  const sendPage = () => {
    const page = unavailablePage();
    for (const name of response.getHeaderNames()) response.removeHeader(name);
    writeHead(page.status, page.headers);
    return page.body;
  };
  response.writeHead = ((status: number, ...rest: unknown[]) =>
    replaces(status) ? response : writeHead(status, ...rest)) as ServerResponse["writeHead"];
  // What Next writes of its own error document is dropped; ours goes out at the end.
  response.write = ((...args: unknown[]) =>
    replaces(response.statusCode) ? true : write(...args)) as ServerResponse["write"];
  let sent = false;
  response.end = ((...args: unknown[]) => {
    if (!replaces(response.statusCode)) return end(...args);
    const callback = args.find((arg) => typeof arg === "function") as (() => void) | undefined;
    // Our page goes out once; a second end (a stream's and Next's own) only hears it is done.
    if (sent) {
      callback?.();
      return response;
    }
    sent = true;
    return callback ? end(sendPage(), callback) : end(sendPage());
  }) as ServerResponse["end"];
}

/**
 * Paths that render a dashboard page (everything but the API, MCP, OAuth and discovery endpoints,
 * route handlers under /api, Next's assets, the metrics, and the API reference's frame and scripts
 * under /docs/api/; /docs/api itself is a page).
 */
const NOT_PAGES = /^\/(v1|mcp|api|oauth|\.well-known|_next|metrics|favicon\.ico)(\/|$|\?)|^\/docs\/api\//;
export const isDashboardPage = (url: string | undefined) =>
  !NOT_PAGES.test(url ?? "/") || /^\/oauth\/interaction\/[^/?]+(\?|$)/.test(url ?? "");

export async function serve({
  dir,
  port,
  dev = false,
  production = false,
  onClose,
  routes = [],
}: ServeOptions): Promise<Server> {
  const server = createServer();
  // hostname "localhost" is what Next's own server assumes when none is given (request URLs).
  const app = next({ dev, dir, hostname: "localhost", port, httpServer: server });
  const handle = app.getRequestHandler();
  const ready = app.prepare();
  ready.catch((error: unknown) => {
    console.error("[server] Next.js failed to start:", error);
    process.exit(1);
  });

  server.on("request", async (request, response) => {
    stampPeer(request);
    stampOrigin(request);
    try {
      await ready;
      const path = routes.length > 0 ? directPath(request.url) : undefined;
      const route = path === undefined ? undefined : routes.find((candidate) => candidate.matches(path));
      const refusal = route?.refuse?.(request, path as string);
      if (refusal) {
        sendImmediate(request, response, refusal);
        return;
      }
      if (route) {
        // The URL's host is ours (as Next's request.url); the client's Host header stays a header.
        const origin = `http://localhost:${port}`;
        await route.serve(request, response, origin).catch(async (error: unknown) => {
          console.error(`[server] failed to handle ${request.method} ${request.url}:`, error);
          if (response.headersSent) response.destroy();
          else await answerDirectFailure(request, response, origin);
        });
        return;
      }
      // A dashboard page cannot be rendered without the database: say so at once, as a 503 page.
      if (isDashboardPage(request.url)) {
        if (!(await databaseHealthy())) {
          const page = unavailablePage();
          response.writeHead(page.status, page.headers).end(page.body);
          return;
        }
        answerDatabaseFaultsAs503(response);
      }
      await handle(request, response);
    } catch (error) {
      console.error(`[server] failed to handle ${request.method} ${request.url}:`, error);
      if (response.headersSent) response.destroy();
      else {
        response.statusCode = 500;
        response.end("Internal Server Error");
      }
    }
  });
  server.on("clientError", answerClientError);
  server.on("error", (error) => {
    console.error("[server] failed to start:", error);
    process.exit(1);
  });

  const sockets = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  let closing = false;
  const close = (signal: "SIGINT" | "SIGTERM") => {
    if (closing) return;
    closing = true;
    // Stop accepting; the callback runs once every in-flight request has been answered.
    server.close(async () => {
      await onClose?.().catch((error: unknown) => console.error(error));
      await app.close().catch((error: unknown) => console.error(error));
      process.exit(signal === "SIGINT" ? 130 : 143);
    });
    // In development, as `next dev`: no waiting, and hot-reload sockets would hold it open.
    if (dev) for (const socket of sockets) socket.destroy();
  };
  process.on("SIGINT", () => close("SIGINT"));
  process.on("SIGTERM", () => close("SIGTERM"));

  await new Promise<void>((resolve) => server.listen(port, resolve));
  console.log(`[server] listening on http://localhost:${port} (${startMode(dev, production)})`);
  return server;
}

/** What the start line calls the server: "production" only when the operator declared it. */
function startMode(dev: boolean, production: boolean): string {
  if (dev) return "development";
  return production ? "production" : "optimised build, not production";
}
