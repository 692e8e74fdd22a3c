/**
 * Names fixed by the published interface (docs/fixed-names.json, described in docs/interface.md):
 * the tests' oracle.
 */
import { DECLARATIONS } from "@/server/7-procedures/operations";
import fixedNames from "../../docs/fixed-names.json";

export const FIXED_NAMES: { mcpTools: string[]; restPaths: string[] } = fixedNames;

/** The fixed MCP tool names, sorted. */
export const SPEC_TOOL_NAMES = [...FIXED_NAMES.mcpTools].sort();

/**
 * The tools the server registers: one per operation that declares a tool
 * (server/7-procedures/operations/); the fixed ones among them are checked against FIXED_NAMES.
 */
export const SERVED_TOOL_NAMES = DECLARATIONS.flatMap((d) => (d.tool ? [d.tool.name] : [])).sort();
