/**
 * The outbound guard (./guard.ts) as a Fetch function, for libraries that fetch on their own:
 * oidc-provider takes it as `configuration.fetch`, so every document it fetches (client metadata
 * documents, a client's `jwks_uri`, sector identifiers) goes through the guard, not through its own
 * check, which only closes a connection to a special-use address after it was made.
 */
import { type OutboundOptions, outboundRequest } from "./guard";

/** The headers a Fetch caller gave, as a plain record. */
function headerRecord(headers: RequestInit["headers"]): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(headers ?? {}).forEach((value, name) => {
    out[name] = value;
  });
  return out;
}

function bodyOf(body: RequestInit["body"]): string | Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string") return body;
  if (body instanceof URLSearchParams) return body.toString();
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  throw new TypeError("the outbound guard sends string, form or byte bodies only");
}

export function guardedFetch(options: () => OutboundOptions) {
  return async (url: string | URL, init: RequestInit = {}): Promise<Response> => {
    const answer = await outboundRequest(
      String(url),
      { method: init.method ?? "GET", headers: headerRecord(init.headers), body: bodyOf(init.body) },
      { ...options(), ...(init.signal ? { signal: init.signal } : {}) },
    );
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
    }
    // The body as read (and perhaps decoded): its original framing no longer applies.
    headers.delete("content-length");
    headers.delete("transfer-encoding");
    const empty = answer.status === 204 || answer.status === 304 || init.method === "HEAD";
    return new Response(empty ? null : new Uint8Array(answer.body), { status: answer.status, headers });
  };
}
