/**
 * Names fixed by the published interface (docs/fixed-names.json, described in docs/interface.md):
 * the tests' oracle.
 */
import fixedNames from "../../docs/fixed-names.json";

export const FIXED_NAMES: { mcpTools: string[]; restPaths: string[] } = fixedNames;

/** The fixed MCP tool names, sorted. */
export const SPEC_TOOL_NAMES = [...FIXED_NAMES.mcpTools].sort();

/** The tools the server registers: the fixed six and ours beyond the interface (docs/interface.md, "chosen"). */
export const SERVED_TOOL_NAMES = [
  ...SPEC_TOOL_NAMES,
  "service_market_get_changes",
  "service_market_get_product",
  "service_market_get_availability",
  "service_market_whatif",
].sort();
