/**
 * Who the MCP server is: serverInfo in the 2025 revisions' initialize, each result's _meta in
 * 2026-07-28, and the registry entry (registry/server.json, checked against this in the tests).
 */
import { ICON_DATA_URI } from "../2-http/icon";

export const SERVER_INFO = {
  name: "market-positioning",
  title: "Market Positioning",
  version: "1.0.0",
  description:
    "Innovation, Control and Scale per product of technology markets, and what each product keeps under a country's sovereign controls.",
  icons: [{ src: ICON_DATA_URI, mimeType: "image/svg+xml", sizes: ["any"] }],
};

/**
 * The identity every 2026-07-28 result carries in its `_meta` (servers SHOULD identify themselves
 * on every response): who, without the icon, which `initialize` and the registry entry carry once
 * (a data URI of 860 bytes on every result was tokens spent for nothing).
 */
export const RESULT_SERVER_INFO = { name: SERVER_INFO.name, title: SERVER_INFO.title, version: SERVER_INFO.version };
