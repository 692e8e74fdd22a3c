/**
 * Names fixed by the published interface (docs/fixed-names.json, described in docs/interface.md):
 * the tests' oracle.
 */
import fixedNames from "../../docs/fixed-names.json";

export const FIXED_NAMES: { mcpTools: string[]; restPaths: string[] } = fixedNames;

/** The fixed MCP tool names, sorted. */
export const SPEC_TOOL_NAMES = [...FIXED_NAMES.mcpTools].sort();
