/**
 * The one way the service makes an HTTP request to a place a user can name — webhook endpoints,
 * client metadata documents, a client's `jwks_uri`, anything the authorization server fetches —
 * so that none can be aimed at the service's own network (SSRF):
 * - only https (http too when tests allow private hosts), no credentials or fragment in the URL;
 * - the host's addresses are looked up once (./resolver.ts) and every one must be public
 *   (server/3-outbound/public-address.ts); the connection goes to the address checked, so a second
 *   lookup (DNS rebinding) cannot move it, and an address literal is checked the same way;
 * - a refusal says only that the address is not public, never which address a name resolved to;
 * - no redirect is followed (a 3xx is the answer, not a new target);
 * - bounded in time (the whole exchange) and in what is read of the answer.
 * `allowPrivate` lifts the address rule for tests on one machine (refused in production at start).
 */
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { isIP } from "node:net";
import { isPublicAddress } from "./public-address";
import { type Resolve, resolveHost } from "./resolver";

export interface OutboundOptions {
  allowPrivate: boolean;
  timeoutMs: number;
  /** At most this many bytes of the answer are read. */
  maxResponseBytes: number;
  /** Past the cap: keep what was read (`truncate`, a log excerpt) or fail (`refuse`, a document). */
  overflow?: "truncate" | "refuse";
  /** The lookup to use (tests give one that answers a chosen address); default: ./resolver.ts. */
  resolve?: Resolve;
  /** Gives up early when this aborts (a caller's own timeout). */
  signal?: AbortSignal;
}

export interface OutboundAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The answer's bytes, at most maxResponseBytes. */
  body: Buffer;
  /** The first bytes of the answer, as text (for logs). */
  excerpt: string;
}

/** Why a request was not made or got no answer, in words safe to show whoever named the URL. */
export class OutboundRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OutboundRefused";
  }
}

/** What every refusal of an address says: that it is not public, and nothing of what it is. */
const NOT_PUBLIC = "is not a public address";

/** The URL a user may aim requests at, or the reason it may not be. */
export function outboundUrlProblem(raw: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "is not a URL";
  }
  if (url.protocol !== "https:" && !(allowPrivate && url.protocol === "http:")) return "must be an https URL";
  if (url.username || url.password) return "must not carry a user name or password";
  if (url.hash) return "must not have a #fragment";
  const host = url.hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "");
  if (!allowPrivate && (host === "localhost" || host.endsWith(".localhost") || (isIP(host) && !isPublicAddress(host))))
    return "must not name a private, loopback or link-local address";
  return null;
}

/**
 * The lookup the socket uses: the host's addresses, refused unless every one is public, and the
 * first handed to the connection (what was checked is what is dialled).
 */
function checkedLookup(options: OutboundOptions): LookupFunction {
  const resolve = options.resolve ?? resolveHost;
  return (hostname, lookupOptions, callback) => {
    resolve(hostname)
      .then((addresses) => {
        if (addresses.length === 0) throw new OutboundRefused(`${hostname} has no address`);
        if (!options.allowPrivate && addresses.some((a) => !isPublicAddress(a.address)))
          throw new OutboundRefused(`${hostname} ${NOT_PUBLIC}`);
        const chosen = addresses[0] as { address: string; family: number };
        if ((lookupOptions as { all?: boolean }).all)
          (callback as (e: null, a: (typeof addresses)[number][]) => void)(null, [chosen]);
        else callback(null, chosen.address, chosen.family);
      })
      .catch((error: Error) =>
        callback(
          (error instanceof OutboundRefused
            ? error
            : new OutboundRefused(`${hostname} could not be resolved`)) as NodeJS.ErrnoException,
          "",
          0,
        ),
      );
  };
}

/** Makes one request under the rules above: the status, headers and (the start of) the answer. */
export function outboundRequest(
  url: string,
  init: { method: string; headers?: Record<string, string>; body?: string | Buffer },
  options: OutboundOptions,
): Promise<OutboundAnswer> {
  const problem = outboundUrlProblem(url, options.allowPrivate);
  if (problem) return Promise.reject(new OutboundRefused(`the URL ${problem}`));
  const target = new URL(url);
  const send = target.protocol === "https:" ? httpsRequest : httpRequest;
  const body = init.body === undefined ? undefined : Buffer.from(init.body);
  const signals = [AbortSignal.timeout(options.timeoutMs), ...(options.signal ? [options.signal] : [])];
  return new Promise<OutboundAnswer>((resolve, reject) => {
    const request = send(
      target,
      {
        method: init.method,
        headers: { ...init.headers, ...(body ? { "Content-Length": String(body.byteLength) } : {}) },
        lookup: checkedLookup(options),
        timeout: options.timeoutMs,
        signal: AbortSignal.any(signals),
        agent: false,
      },
      (response: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let read = 0;
        const finish = () => {
          const all = Buffer.concat(chunks);
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: all,
            excerpt: all.toString("utf8").slice(0, options.maxResponseBytes),
          });
        };
        response.on("data", (chunk: Buffer) => {
          if (read >= options.maxResponseBytes) return;
          chunks.push(chunk.subarray(0, options.maxResponseBytes - read));
          read += chunk.byteLength;
          if (read < options.maxResponseBytes) return;
          // Enough read: the rest is not ours to wait for.
          response.destroy();
          if (options.overflow === "refuse")
            reject(new OutboundRefused(`the answer is larger than ${options.maxResponseBytes} bytes`));
          else finish();
        });
        response.on("end", finish);
        response.on("error", (error) => (read >= options.maxResponseBytes ? undefined : reject(error)));
      },
    );
    const late = () => new OutboundRefused(`no answer within ${options.timeoutMs} ms`);
    request.on("timeout", () => request.destroy(late()));
    request.on("error", (error: Error) =>
      reject(error.name === "AbortError" || error.name === "TimeoutError" ? late() : error),
    );
    request.end(body);
  });
}

/** POSTs `body` to `url` under the rules above (webhook deliveries): the receiver's status and the start of its answer. */
export const postOutbound = (
  url: string,
  body: string,
  headers: Record<string, string>,
  options: OutboundOptions,
): Promise<OutboundAnswer> => outboundRequest(url, { method: "POST", headers, body }, options);
