/**
 * The answer to a request Node's HTTP parser refuses before any handler runs (a header section
 * over 16 KB, a malformed request line, a request that took too long to arrive). Node would send
 * a bare status line; we send what every /v1 and /mcp failure carries: an RFC 9457 problem+json
 * body with our code, the API security headers, and Connection: close, since the connection
 * cannot be read further. Written straight to the socket, so it is the whole HTTP/1.1 message.
 */
import { STATUS_CODES } from "node:http";
import type { ErrorCode } from "../1-errors/codes";
import { PROBLEM_CONTENT_TYPE, problemOf } from "../2-http/problem";
import { apiSecurityHeaders, arrivedOverTls } from "../2-http/security-headers";

/** Node's code for each refusal (llhttp's HPE_* and the server's timeout), and ours. */
function describeClientError(nodeCode: string | undefined): { code: ErrorCode; detail: string } {
  switch (nodeCode) {
    case "HPE_HEADER_OVERFLOW":
      return {
        code: "request_header_too_large",
        detail: "The request line and headers are larger than 16 KB together.",
      };
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return { code: "request_timeout", detail: "The request did not arrive in time." };
    default:
      return { code: "invalid_request", detail: "The request is not valid HTTP/1.1." };
  }
}

/** The full HTTP/1.1 response to a refused request, from the origin its problem `type` links to. */
export function clientErrorResponse(
  nodeCode: string | undefined,
  context: { origin: string; requestId: string },
): string {
  const { code, detail } = describeClientError(nodeCode);
  const problem = problemOf(code, detail, context);
  const body = JSON.stringify(problem);
  const headers: Record<string, string> = {
    "Content-Type": PROBLEM_CONTENT_TYPE,
    "Content-Length": String(Buffer.byteLength(body)),
    "X-Request-Id": context.requestId,
    "Cache-Control": "no-store",
    // The request's own headers are unknown: TLS only as APP_URL says.
    ...apiSecurityHeaders(arrivedOverTls("http:", null)),
    Date: new Date().toUTCString(),
    Connection: "close",
  };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status]}\r\n${head.join("")}\r\n${body}`;
}
