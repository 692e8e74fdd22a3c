/** The answer our server writes on the socket to a request Node's HTTP parser refuses. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { connectionOrigin } from "@/server/2-http/origin";
import { clientErrorResponse } from "@/server/5-http-server/client-error";

describe("requests Node refuses", () => {
  const context = { origin: "http://127.0.0.1:3000", requestId: "r-1" };

  function parse(raw: string) {
    const [head = "", body = ""] = raw.split("\r\n\r\n");
    const [statusLine = "", ...lines] = head.split("\r\n");
    const headers = new Map(
      lines.map((line) => [line.split(": ")[0]?.toLowerCase(), line.slice(line.indexOf(": ") + 2)]),
    );
    return { statusLine, headers, body, json: JSON.parse(body) };
  }

  it.each([
    ["HPE_HEADER_OVERFLOW", "431 Request Header Fields Too Large", "request_header_too_large"],
    ["ERR_HTTP_REQUEST_TIMEOUT", "408 Request Timeout", "request_timeout"],
    ["HPE_INVALID_METHOD", "400 Bad Request", "invalid_request"],
    ["HPE_CHUNK_EXTENSIONS_OVERFLOW", "400 Bad Request", "invalid_request"],
    [undefined, "400 Bad Request", "invalid_request"],
  ])("%s: %s with a problem body coded %s", (nodeCode, status, code) => {
    const { statusLine, headers, body, json } = parse(clientErrorResponse(nodeCode, context));
    expect(statusLine).toBe(`HTTP/1.1 ${status}`);
    expect(headers.get("content-type")).toBe("application/problem+json");
    expect(headers.get("content-length")).toBe(String(Buffer.byteLength(body)));
    expect(headers.get("connection")).toBe("close");
    expect(headers.get("x-content-type-options")).toBe("nosniff");
    expect(headers.get("x-frame-options")).toBe("DENY");
    expect(headers.get("x-request-id")).toBe("r-1");
    expect(json).toMatchObject({
      type: `http://127.0.0.1:3000/docs/errors#${code}`,
      code,
      status: Number(status.slice(0, 3)),
      requestId: "r-1",
    });
  });

  it("links to the address the client connected to, or APP_URL", () => {
    expect(connectionOrigin("::ffff:127.0.0.1", 3000)).toBe("http://127.0.0.1:3000");
    expect(connectionOrigin("::1", 3000)).toBe("http://[::1]:3000");
    expect(connectionOrigin("192.0.2.2", 80)).toBe("http://192.0.2.2:80");
    expect(connectionOrigin(undefined, undefined)).toBe("http://localhost");
    vi.stubEnv("APP_URL", "https://api.example.org/");
    expect(connectionOrigin("::ffff:127.0.0.1", 3000)).toBe("https://api.example.org");
  });

  it("sends HSTS when APP_URL says clients come by TLS", () => {
    expect(parse(clientErrorResponse(undefined, context)).headers.has("strict-transport-security")).toBe(false);
    vi.stubEnv("APP_URL", "https://api.example.org");
    expect(parse(clientErrorResponse(undefined, context)).headers.get("strict-transport-security")).toMatch(/max-age/);
  });

  afterEach(() => {
    vi.unstubAllEnvs();
  });
});
