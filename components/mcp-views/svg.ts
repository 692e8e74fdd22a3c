/** Small SVG building helpers for the chart view (no framework inside the MCP Apps iframe). */
const SVG_NS = "http://www.w3.org/2000/svg";

export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number> = {},
  children: (SVGElement | string)[] = [],
): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  for (const child of children) element.append(typeof child === "string" ? document.createTextNode(child) : child);
  return element;
}

/** A native tooltip: the first child <title> of a mark. */
export const tooltip = (text: string) => svg("title", {}, [text]);
