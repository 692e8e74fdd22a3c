/**
 * The MCP Apps view of the delta, max and capability index tools: one self-contained page in the
 * host's iframe. It draws the reading the tool returned, switches between map and bars (the delta
 * opens on the chart its `view` argument names) and switches country by calling the tool again
 * through the host.
 */
import {
  type CapaIndexPayload,
  capaIndexBars,
  type DeltaPayload,
  deltaGhostBars,
  deltaStreaks,
  type MaxPayload,
  maxGhostBars,
} from "../../server/2-charts/chart-data";
import { drawBars, drawMap } from "./draw";
import { ViewBridge } from "./view-bridge";

type Reading =
  | { kind: "delta"; tool: string; payload: DeltaPayload }
  | { kind: "max"; tool: string; payload: MaxPayload }
  | { kind: "capaindex"; tool: string; payload: CapaIndexPayload };

const state: { reading?: Reading; view: "map" | "bars"; args: Record<string, unknown> } = { view: "map", args: {} };
const root = document.getElementById("root") as HTMLElement;
const app = new ViewBridge({ name: "Market Positioning charts", version: "1.0.0" });

/** Which reading a payload is, from its shape (one view serves three tools). */
function readingOf(payload: Record<string, unknown>): Reading | undefined {
  const first = (payload.products as Record<string, unknown>[] | undefined)?.[0] ?? {};
  if ("underControls" in first)
    return { kind: "delta", tool: "service_market_get_delta", payload: payload as unknown as DeltaPayload };
  if ("on" in first)
    return { kind: "max", tool: "service_market_get_servicemax", payload: payload as unknown as MaxPayload };
  if ("innovation" in first)
    return { kind: "capaindex", tool: "service_market_get_capaindex", payload: payload as unknown as CapaIndexPayload };
  return undefined;
}

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Record<string, unknown> = {},
  children: (Node | string)[] = [],
): HTMLElementTagNameMap[K] {
  const node: HTMLElementTagNameMap[K] = document.createElement(tag);
  Object.assign(node, props);
  node.append(...children);
  return node;
}

function showError(text: string) {
  root.replaceChildren(element("p", { className: "error", role: "alert" }, [text]));
}

async function countrySelect(current: string): Promise<HTMLElement> {
  const select = element("select", { id: "country" });
  select.setAttribute("data-testid", "country");
  select.append(element("option", { value: current, selected: true }, [current]));
  // Free tool: the countries and what each engages.
  app
    .callServerTool({ name: "service_geographies_list", arguments: {} })
    .then((result) => {
      const geographies =
        (result.structuredContent as { geographies?: { country: string; name: string; controls: unknown[] }[] })
          ?.geographies ?? [];
      select.replaceChildren(
        ...geographies.map((g) =>
          element("option", { value: g.country, selected: g.country === current }, [
            `${g.name} (${g.country})${g.controls.length === 0 ? " — no controls" : ""}`,
          ]),
        ),
      );
    })
    .catch(() => {});
  select.addEventListener("change", () => void recall({ country: select.value }));
  return element("label", {}, ["Country ", select]);
}

async function recall(change: Record<string, unknown>) {
  const reading = state.reading;
  if (!reading) return;
  state.args = {
    ...state.args,
    ...change,
    marketId: reading.payload.marketId,
    ...(reading.kind === "delta" ? { view: state.view } : {}),
  };
  root.setAttribute("aria-busy", "true");
  try {
    const result = await app.callServerTool({ name: reading.tool, arguments: state.args });
    if (result.isError) return showError(problemText(result.content));
    show(result.structuredContent as Record<string, unknown>);
  } catch (error) {
    showError(error instanceof Error ? error.message : String(error));
  } finally {
    root.removeAttribute("aria-busy");
  }
}

function problemText(content: unknown): string {
  const text = (content as { text?: string }[] | undefined)?.[0]?.text ?? "The call failed.";
  try {
    return (JSON.parse(text) as { detail?: string }).detail ?? text;
  } catch {
    return text;
  }
}

async function show(payload: Record<string, unknown>) {
  const reading = readingOf(payload);
  if (!reading) return showError("This result has no products to draw.");
  state.reading = reading;
  const title =
    reading.kind === "delta"
      ? `Delta under ${reading.payload.country}'s controls`
      : reading.kind === "max"
        ? `Max reading under ${reading.payload.country}'s controls`
        : "Capability Index";
  const toolbar = element("div", { className: "toolbar" });
  if (reading.kind !== "capaindex") toolbar.append(await countrySelect(reading.payload.country));
  if (reading.kind === "delta")
    for (const view of ["map", "bars"] as const) {
      const button = element("button", { type: "button", textContent: view === "map" ? "Map" : "Bars" });
      button.setAttribute("aria-pressed", String(state.view === view));
      button.setAttribute("data-view", view);
      button.addEventListener("click", () => {
        state.view = view;
        void show(payload);
      });
      toolbar.append(button);
    }
  const chart =
    reading.kind === "delta"
      ? state.view === "map"
        ? drawMap(deltaStreaks(reading.payload))
        : drawBars(deltaGhostBars(reading.payload), { ghost: true })
      : reading.kind === "max"
        ? drawBars(maxGhostBars(reading.payload), { ghost: true })
        : drawBars(capaIndexBars(reading.payload), { ghost: false });
  const legend =
    reading.kind === "capaindex"
      ? "Published Innovation, ranked."
      : state.view === "map" && reading.kind === "delta"
        ? "Hollow: published. Filled: under controls. Each streak runs from one to the other."
        : "Solid: Innovation kept under controls. Ghost: the published ceiling, what is given up.";
  root.replaceChildren(element("h1", {}, [title]), toolbar, chart, element("p", { className: "legend" }, [legend]));
  root.setAttribute("data-reading", reading.kind);
  root.setAttribute("data-view", reading.kind === "delta" ? state.view : "bars");
}

app.ontoolinput = ({ arguments: args }) => {
  state.args = args ?? {};
  if (args?.view === "bars" || args?.view === "map") state.view = args.view;
};
app.ontoolresult = (result) => {
  if (result.isError) showError(problemText(result.content));
  else void show((result.structuredContent ?? {}) as Record<string, unknown>);
};
app.connect().catch((error: unknown) => showError(`Could not reach the host: ${String(error)}`));
