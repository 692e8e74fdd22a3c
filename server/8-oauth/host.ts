/**
 * Where the providers run: one private HTTP server on a loopback port chosen by the OS, shared by
 * every route of this process (kept on globalThis: Next.js may load this module once per route
 * bundle), dispatching by the public origin the app forwarded. `forwardToProvider` is the bridge
 * from a Fetch Request to it and back.
 */
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type Provider from "oidc-provider";
import type { Database } from "../../db/client";
import { INTERNAL_SECRET_HEADER } from "./decision";
import { createProvider } from "./provider";

interface OAuthHost {
  /** Proves a request to the private port came from this process, not another local program. */
  secret: string;
  port: Promise<number> | null;
  providers: Map<string, Promise<Provider>>;
}

const HOST_KEY = Symbol.for("market-positioning.oauth-host");
/** Origins are normally one (APP_URL); the cap bounds what forged Host headers can make us build. */
const MAX_ORIGINS = 8;
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-length",
  "content-encoding",
  "host",
  "upgrade",
  "expect",
]);

function oauthHost(): OAuthHost {
  const global = globalThis as { [HOST_KEY]?: OAuthHost };
  global[HOST_KEY] ??= {
    secret: randomBytes(32).toString("base64url"),
    port: null,
    providers: new Map(),
  };
  return global[HOST_KEY];
}

/** The provider whose issuer is this origin, made on first use. */
export function providerFor(db: Database, origin: string): Promise<Provider> {
  const host = oauthHost();
  const { providers, secret } = host;
  let provider = providers.get(origin);
  if (!provider) {
    if (providers.size >= MAX_ORIGINS) providers.delete(providers.keys().next().value as string);
    provider = createProvider(db, origin, secret);
    provider.catch(() => providers.delete(origin));
    providers.set(origin, provider);
  }
  return provider;
}

const forwardedOrigin = (headers: Record<string, string | string[] | undefined>) =>
  `${headers["x-forwarded-proto"]}://${headers["x-forwarded-host"]}`;

function listening(): Promise<number> {
  const host = oauthHost();
  host.port ??= new Promise((resolve, reject) => {
    const server = createServer((req, res) => {
      const provider = host.providers.get(forwardedOrigin(req.headers));
      if (!provider) {
        res.writeHead(404).end();
        return;
      }
      provider.then(
        (p) => p.callback()(req, res),
        () => res.writeHead(503).end(),
      );
    });
    server.on("error", reject);
    // The bridge's fetch (undici) closes idle connections itself. Were this server to close them
    // too (Node's 5 s default), a request could be sent on a socket the server is closing just
    // then, and fail with "other side closed": a 500 for a call that never reached the provider.
    server.keepAliveTimeout = 0;
    // Never reachable from outside the machine; keeps no process alive on its own.
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
    server.unref();
  });
  return host.port;
}

export interface ForwardOptions {
  /** The provider's path, when it is not the request's own. */
  path?: string;
  /** A replacement body (e.g. an amended registration). */
  body?: BodyInit;
  /** Headers only the app may set (the decision's account, the internal secret). */
  internal?: Record<string, string>;
}

/** Sends a request to the origin's provider and returns its answer as it is, cookies included. */
export async function forwardToProvider(
  db: Database,
  origin: string,
  request: Request,
  options: ForwardOptions = {},
): Promise<Response> {
  await providerFor(db, origin);
  const port = await listening();
  const url = new URL(request.url);
  const headers = new Headers();
  for (const [name, value] of request.headers) {
    if (!HOP_BY_HOP.has(name) && !name.startsWith("x-forwarded-") && name !== INTERNAL_SECRET_HEADER)
      headers.set(name, value);
  }
  const publicUrl = new URL(origin);
  headers.set("x-forwarded-host", publicUrl.host);
  headers.set("x-forwarded-proto", publicUrl.protocol.slice(0, -1));
  for (const [name, value] of Object.entries(options.internal ?? {})) headers.set(name, value);
  if (options.internal) headers.set(INTERNAL_SECRET_HEADER, oauthHost().secret);
  const hasBody = request.method !== "GET" && request.method !== "HEAD";
  const answer = await fetch(`http://127.0.0.1:${port}${options.path ?? url.pathname + url.search}`, {
    method: request.method,
    headers,
    body: hasBody ? (options.body ?? (await request.arrayBuffer())) : undefined,
    redirect: "manual",
  });
  const out = new Headers();
  for (const [name, value] of answer.headers) if (name !== "set-cookie" && !HOP_BY_HOP.has(name)) out.set(name, value);
  for (const cookie of answer.headers.getSetCookie()) out.append("set-cookie", cookie);
  const body = answer.status === 204 || answer.status === 304 ? null : await answer.arrayBuffer();
  return new Response(body, { status: answer.status, headers: out });
}
