/**
 * The common tool call is answered without an MCP server built for it (server/8-mcp/fast-call.ts);
 * everything else goes through the SDK. Here both paths answer the same call — the plain one, and
 * the same call with an entry in `_meta` that the fast path leaves to the SDK (and the SDK ignores)
 * — for every tool's example on every revision served, over raw HTTP: status, headers and the
 * JSON-RPC answer must agree, but for what differs per call (request id, balance, receipt). And
 * every tool is called every way a client can (each revision, each Accept, plainly and through the
 * SDK's server): the bytes of the result must be the same every time.
 */
import { describe, expect, inject, it } from "vitest";
import { DECLARATIONS } from "@/server/7-procedures/operations";
import { FAST_REVISIONS } from "@/server/8-mcp/fast-call";

const base = inject("appUrl");
const { reader } = inject("accounts");

interface Answer {
  status: number;
  headers: Record<string, string | null>;
  message: unknown;
}

/**
 * What differs from one call to the next: the request id, the balance, a link's receipt (its
 * expiry), and the account tool's balance and rate-limit window (other suites spend meanwhile).
 */
const steady = (text: string) =>
  text
    .replace(/"(balance|resetSeconds)":\d+/g, '"$1":0')
    .replace(/Balance: [\d,]+ credits\./g, "Balance: … credits.")
    .replace(/[\d,]+ credits left; (.*?) \(\d+ left, resets in \d+ s\)/g, "… credits left; $1 (… left)")
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "…")
    .replace(/"remaining":\d+/g, '"remaining":0')
    .replace(/receipt=\d{10}\.[A-Za-z0-9_-]{43}/g, "receipt=…");

const MODERN = "2026-07-28";
const ACCEPTS = ["application/json, text/event-stream", "text/event-stream, application/json"];

const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "mps-fast-call", version: "1.0.0" },
};

interface Way {
  revision: string;
  /** The Accept header sent. */
  accept?: string;
  /** With an entry in `_meta` that leaves the call to the SDK's server (which ignores it). */
  traced?: boolean;
}

/** One tools/call sent `way`. */
function post(way: Way, params: { name: string; arguments?: unknown }): Promise<Response> {
  const modern = way.revision === MODERN;
  const trace = way.traced ? { "io.example/trace": "t-1" } : {};
  const meta = modern ? { ...ENVELOPE, ...trace } : trace;
  return fetch(`${base}/mcp`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${reader.token}`,
      "Content-Type": "application/json",
      Accept: way.accept ?? (ACCEPTS[0] as string),
      "MCP-Protocol-Version": way.revision,
      ...(modern ? { "Mcp-Method": "tools/call", "Mcp-Name": params.name } : {}),
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: "call-1",
      method: "tools/call",
      params: { ...params, ...(Object.keys(meta).length ? { _meta: meta } : {}) },
    }),
  });
}

/** The content type answered and the text of the one JSON-RPC message, from JSON or the one `message` event. */
async function messageOf(response: Response): Promise<{ type: string; text: string }> {
  const body = await response.text();
  const type = response.headers.get("content-type") ?? "";
  if (!type.startsWith("text/event-stream")) return { type, text: body };
  const events = body.split("\n\n").filter((event) => event.trim() !== "");
  expect(events, body.slice(0, 300)).toHaveLength(1);
  expect(events[0]?.startsWith("event: message\ndata: "), body.slice(0, 300)).toBe(true);
  return { type, text: (events[0] as string).slice("event: message\ndata: ".length) };
}

/** One tools/call as a client of `revision` sends it; `traced` adds an entry to `_meta` that leaves it to the SDK. */
async function call(revision: string, params: { name: string; arguments?: unknown }, traced = false): Promise<Answer> {
  const response = await post({ revision, traced }, params);
  const { text } = await messageOf(response);
  return {
    status: response.status,
    headers: Object.fromEntries(
      ["content-type", "cache-control", "x-accel-buffering", "x-content-type-options", "content-security-policy"].map(
        (name) => [name, response.headers.get(name)],
      ),
    ),
    message: JSON.parse(steady(text)),
  };
}

/** What the 2026-07-28 frame adds to a result: who answers (at the end of `_meta`) and `resultType`. */
const withoutModernFrame = (text: string) =>
  text.replace(/,?"io\.modelcontextprotocol\/serverInfo":\{[^{}]*\}/, "").replace(',"resultType":"complete"', "");

/** One tools/call sent `way`: the content type answered and the JSON-RPC message's text as it came. */
async function callEveryWay(way: Way, name: string, args: unknown): Promise<{ type: string; text: string }> {
  const response = await post(way, { name, arguments: args });
  expect(response.status, `${JSON.stringify(way)} ${name}`).toBe(200);
  return messageOf(response);
}

describe("a tool call answered without building an MCP server", () => {
  it("answers exactly as the SDK does, for every tool's example on every revision", async () => {
    expect([...FAST_REVISIONS].sort()).toEqual(["2025-03-26", "2025-06-18", "2025-11-25", MODERN]);
    for (const revision of FAST_REVISIONS)
      for (const declaration of DECLARATIONS.filter((d) => d.tool)) {
        const params = { name: declaration.tool?.name as string, arguments: declaration.example };
        const direct = await call(revision, params);
        const throughSdk = await call(revision, params, true);
        expect(direct.status).toBe(200);
        expect(direct, `${revision} ${params.name}`).toEqual(throughSdk);
        expect((direct.message as { result: { isError?: boolean } }).result.isError ?? false).toBe(false);
      }
  });

  it("answers a tool error (an unknown market) as the SDK does", async () => {
    const params = { name: "service_market_get_snapshot", arguments: { marketId: "no-such-market" } };
    for (const revision of ["2025-06-18", MODERN]) {
      const direct = await call(revision, params);
      expect(direct).toEqual(await call(revision, params, true));
      expect(direct.message).toMatchObject({ id: "call-1", result: { isError: true } });
    }
  });

  it("answers a call that asks for a task (2025-11-25) with its result at once: no tasks are offered", async () => {
    const params = { name: "service_markets_list", arguments: {}, task: { ttl: 60_000 } };
    const answer = await call("2025-11-25", params as never);
    expect(answer.status).toBe(200);
    const message = answer.message as { result?: { structuredContent?: { markets?: unknown[] }; task?: unknown } };
    expect(message.result?.task).toBeUndefined();
    expect(message.result?.structuredContent?.markets?.length).toBeGreaterThan(0);
  });

  it("leaves what it does not answer to the SDK: refused arguments and unknown tools keep the SDK's answers", async () => {
    const refused = await call("2025-06-18", { name: "service_market_get_snapshot", arguments: { marketId: 7 } });
    expect(refused.message).toMatchObject({ id: "call-1" });
    const unknown = await call("2025-06-18", { name: "no_such_tool", arguments: {} });
    expect(JSON.stringify(unknown.message)).toContain("no_such_tool");
  });

  it("gives the same bytes of result on every revision, Accept and path through the edge", async () => {
    const ways: Way[] = [...FAST_REVISIONS].flatMap((revision) =>
      ACCEPTS.flatMap((accept) => [false, true].map((traced) => ({ revision, accept, traced }))),
    );
    const tools = DECLARATIONS.filter((declaration) => declaration.tool);
    expect(tools.length).toBeGreaterThan(5);
    for (const declaration of tools) {
      const name = declaration.tool?.name as string;
      const answers = [];
      for (const way of ways) answers.push({ way, ...(await callEveryWay(way, name, declaration.example)) });
      // A 2025 client is answered with an event stream, a 2026-07-28 client with JSON.
      for (const { way, type } of answers)
        expect(type, `${JSON.stringify(way)} ${name}`).toBe(
          way.revision === MODERN ? "application/json" : "text/event-stream",
        );
      const [first, ...rest] = answers.map(({ way, text }) => ({ way, bytes: withoutModernFrame(steady(text)) }));
      expect(JSON.parse(first?.bytes as string)).toMatchObject({ id: "call-1", jsonrpc: "2.0" });
      expect((JSON.parse(first?.bytes as string) as { result: { isError?: boolean } }).result.isError ?? false).toBe(
        false,
      );
      for (const other of rest) {
        const at = [...(first?.bytes ?? "")].findIndex((char, index) => other.bytes[index] !== char);
        const where = `${JSON.stringify(other.way)} ${name}, from byte ${at}: ${other.bytes.slice(at - 80, at + 120)} ≠ ${first?.bytes.slice(at - 80, at + 120)}`;
        expect(other.bytes, where).toBe(first?.bytes);
      }
    }
  });
});
