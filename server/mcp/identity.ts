/**
 * Who the MCP server is: serverInfo in the 2025 revisions' initialize, each result's _meta in
 * 2026-07-28, and the registry entry (registry/server.json, checked against this in the tests).
 */
import { ICON_DATA_URI } from "../http/icon";

export const SERVER_INFO = {
  name: "market-positioning",
  title: "Market Positioning",
  version: "1.0.0",
  description:
    "Innovation, Control and Scale per product of technology markets, and what each product keeps under a country's sovereign controls.",
  icons: [{ src: ICON_DATA_URI, mimeType: "image/svg+xml", sizes: ["any"] }],
};
