/**
 * A minimal MCP Apps host for the browser suite, built on ext-apps' AppBridge: it loads a view in
 * a sandboxed iframe, hands it a tool's input and result, and forwards the view's tool calls to
 * the test (which makes them against /mcp with the SDK client).
 */
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

interface HostWindow extends Window {
  callTool(params: unknown): Promise<never>;
  startHost(html: string, args: Record<string, unknown>, result: unknown): Promise<void>;
}
const host = window as unknown as HostWindow;

host.startHost = async (html, args, result) => {
  const iframe = document.createElement("iframe");
  iframe.setAttribute("sandbox", "allow-scripts");
  iframe.style.cssText = "width:760px;height:640px;border:1px solid #ccc";
  document.body.append(iframe);
  const view = iframe.contentWindow as Window;
  const bridge = new AppBridge(null, { name: "test-host", version: "1.0.0" }, { serverTools: {} });
  bridge.oncalltool = (params) => host.callTool(params);
  const initialized = new Promise<void>((resolve) => {
    bridge.oninitialized = () => resolve();
  });
  // Listen before the view loads: it says hello as soon as it runs.
  await bridge.connect(new PostMessageTransport(view, view));
  iframe.srcdoc = html;
  await initialized;
  await bridge.sendToolInput({ arguments: args });
  await bridge.sendToolResult(result as never);
};
