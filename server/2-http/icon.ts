/**
 * The service's icon: three bars, one per axis (Innovation, Control, Scale). One source for the
 * dashboard's favicon (/icon.svg), the MCP server's `icons` and the registry entry.
 */
export const ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" role="img"><title>Market Positioning</title><rect width="64" height="64" rx="12" fill="#1d3557"/><rect x="12" y="30" width="10" height="22" rx="2" fill="#a8dadc"/><rect x="27" y="14" width="10" height="38" rx="2" fill="#f1faee"/><rect x="42" y="22" width="10" height="30" rx="2" fill="#e63946"/></svg>`;

export const ICON_PATH = "/icon.svg";

/** The icon as a data: URI, for clients that show it without fetching anything. */
export const ICON_DATA_URI = `data:image/svg+xml;base64,${Buffer.from(ICON_SVG).toString("base64")}`;
