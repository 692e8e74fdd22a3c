/**
 * The view's side of MCP Apps (the `ui/*` JSON-RPC messages between a view in the host's iframe
 * and its host, as @modelcontextprotocol/ext-apps speaks them), only what a view that reads and
 * draws needs: the `ui/initialize` handshake, the tool's input and result, calling a server tool
 * through the host, and its size. ext-apps' own `App` brings the MCP SDK's protocol layer with zod
 * and a JSON Schema validator (650 KB of a 670 KB page) to check messages this view only reads;
 * the host end stays ext-apps' `AppBridge`, which the browser suite drives this view with.
 *
 * Messages are accepted from the parent window only; anything else posted to the frame is ignored.
 */

/** The revision of the MCP Apps messages this view speaks (ext-apps' LATEST_PROTOCOL_VERSION). */
export const UI_PROTOCOL_VERSION = "2026-01-26";

export interface ToolResult {
  isError?: boolean;
  content?: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
}

interface Message {
  jsonrpc: "2.0";
  id?: number | string;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: { code: number; message: string };
}

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };

export class ViewBridge {
  ontoolinput?: (params: { arguments?: Record<string, unknown> }) => void;
  ontoolresult?: (result: ToolResult) => void;

  private nextId = 1;
  private readonly pending = new Map<number | string, Pending>();
  private readonly host: Window;

  constructor(
    private readonly appInfo: { name: string; version: string },
    host: Window = window.parent,
  ) {
    this.host = host;
  }

  /** Starts listening, then the handshake: `ui/initialize`, then `ui/notifications/initialized`. */
  async connect(): Promise<void> {
    window.addEventListener("message", (event) => {
      if (event.source !== this.host) return;
      const message = event.data as Message | null;
      if (message?.jsonrpc === "2.0") this.receive(message);
    });
    await this.request("ui/initialize", {
      appInfo: this.appInfo,
      appCapabilities: {},
      protocolVersion: UI_PROTOCOL_VERSION,
    });
    this.notify("ui/notifications/initialized", {});
    this.reportSize();
  }

  /** Calls a tool of the MCP server through the host; resolves with its result. */
  callServerTool(params: { name: string; arguments: Record<string, unknown> }): Promise<ToolResult> {
    return this.request("tools/call", params) as Promise<ToolResult>;
  }

  private receive(message: Message): void {
    if (message.method === undefined) {
      // A response to one of our requests.
      const waiting = message.id === undefined ? undefined : this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id as number | string);
      if (message.error) waiting.reject(new Error(message.error.message));
      else waiting.resolve(message.result);
      return;
    }
    const params = message.params ?? {};
    if (message.method === "ui/notifications/tool-input") this.ontoolinput?.(params);
    else if (message.method === "ui/notifications/tool-result") this.ontoolresult?.(params as ToolResult);
    // Requests the host may send: answered, with nothing to do for a view that only draws.
    if (message.id !== undefined) {
      const known = message.method === "ping" || message.method === "ui/resource-teardown";
      this.host.postMessage(
        known
          ? { jsonrpc: "2.0", id: message.id, result: {} }
          : {
              jsonrpc: "2.0",
              id: message.id,
              error: { code: -32601, message: `${message.method} is not handled here` },
            },
        "*",
      );
    }
  }

  private request(method: string, params: Record<string, unknown>): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.host.postMessage({ jsonrpc: "2.0", id, method, params }, "*");
    });
  }

  private notify(method: string, params: Record<string, unknown>): void {
    this.host.postMessage({ jsonrpc: "2.0", method, params }, "*");
  }

  /** Tells the host the view's size now and whenever it changes (the host sizes the frame). */
  private reportSize(): void {
    let last = "";
    const send = () => {
      const root = document.documentElement;
      const size = { width: Math.ceil(window.innerWidth), height: Math.ceil(root.getBoundingClientRect().height) };
      const key = `${size.width}x${size.height}`;
      if (key === last) return;
      last = key;
      this.notify("ui/notifications/size-changed", size);
    };
    send();
    const observer = new ResizeObserver(() => requestAnimationFrame(send));
    observer.observe(document.documentElement);
    observer.observe(document.body);
  }
}
