/**
 * An HTTP request to a URL a user chose (a webhook endpoint), made so that it cannot be aimed at
 * the service's own network (SSRF):
 * - only http and https, no credentials in the URL;
 * - the host's addresses are looked up once and every one must be public (./public-address.ts);
 *   the connection goes to the address checked, so a second lookup (DNS rebinding) cannot move it;
 * - no redirect is followed (a 3xx is the receiver's answer, not a new target);
 * - bounded in time (connect and whole exchange) and in what is read of the answer.
 * `allowPrivate` lifts the address rule for tests on one machine (refused in production at start).
 */
import { lookup as dnsLookup } from "node:dns/promises";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { isIP } from "node:net";
import { isPublicAddress } from "./public-address";

export interface OutboundOptions {
  allowPrivate: boolean;
  timeoutMs: number;
  /** At most this many bytes of the answer are read; the rest is dropped with the connection. */
  maxResponseBytes: number;
  /** The lookup to use (tests give one that answers a chosen address); default: the system's. */
  resolve?: (hostname: string) => Promise<{ address: string; family: number }[]>;
}

export interface OutboundAnswer {
  status: number;
  /** The first bytes of the answer, as text. */
  excerpt: string;
}

/** Why a request was not made or got no answer: said to the endpoint's owner in the delivery log. */
export class OutboundRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OutboundRefused";
  }
}

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
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (!allowPrivate && (host === "localhost" || host.endsWith(".localhost") || (isIP(host) && !isPublicAddress(host))))
    return "must not name a private, loopback or link-local address";
  return null;
}

const systemResolve = (hostname: string) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * The lookup the socket uses: the host's addresses, refused unless every one is public, and the
 * first handed to the connection (what was checked is what is dialled).
 */
function checkedLookup(options: OutboundOptions): LookupFunction {
  const resolve = options.resolve ?? systemResolve;
  return (hostname, lookupOptions, callback) => {
    resolve(hostname)
      .then((addresses) => {
        if (addresses.length === 0) throw new OutboundRefused(`${hostname} has no address`);
        const blocked = addresses.find((a) => !isPublicAddress(a.address));
        if (blocked && !options.allowPrivate)
          throw new OutboundRefused(`${hostname} resolves to ${blocked.address}, which is not a public address`);
        const chosen = addresses[0] as { address: string; family: number };
        if ((lookupOptions as { all?: boolean }).all)
          (callback as (e: null, a: typeof addresses) => void)(null, [chosen]);
        else callback(null, chosen.address, chosen.family);
      })
      .catch((error: Error) => callback(error as NodeJS.ErrnoException, "", 0));
  };
}

/** POSTs `body` to `url` under the rules above: the receiver's status and the start of its answer. */
export function postOutbound(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: OutboundOptions,
): Promise<OutboundAnswer> {
  const problem = outboundUrlProblem(url, options.allowPrivate);
  if (problem) return Promise.reject(new OutboundRefused(`the URL ${problem}`));
  const target = new URL(url);
  const send = target.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise<OutboundAnswer>((resolve, reject) => {
    const request = send(
      target,
      {
        method: "POST",
        headers: { ...headers, "Content-Length": String(Buffer.byteLength(body)) },
        lookup: checkedLookup(options),
        timeout: options.timeoutMs,
        signal: AbortSignal.timeout(options.timeoutMs),
        agent: false,
      },
      (response: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let read = 0;
        const finish = () =>
          resolve({
            status: response.statusCode ?? 0,
            excerpt: Buffer.concat(chunks).toString("utf8").slice(0, options.maxResponseBytes),
          });
        response.on("data", (chunk: Buffer) => {
          if (read >= options.maxResponseBytes) return;
          chunks.push(chunk.subarray(0, options.maxResponseBytes - read));
          read += chunk.byteLength;
          // Enough read: the rest is not ours to wait for.
          if (read >= options.maxResponseBytes) {
            response.destroy();
            finish();
          }
        });
        response.on("end", finish);
        response.on("error", (error) => (read >= options.maxResponseBytes ? finish() : reject(error)));
      },
    );
    request.on("timeout", () => request.destroy(new OutboundRefused(`no answer within ${options.timeoutMs} ms`)));
    request.on("error", (error: Error) =>
      reject(
        error.name === "AbortError" || error.name === "TimeoutError"
          ? new OutboundRefused(`no answer within ${options.timeoutMs} ms`)
          : error,
      ),
    );
    request.end(body);
  });
}
