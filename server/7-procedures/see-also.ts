/**
 * An error's pointer to the operation that answers what the caller lacked ("GET /v1/geographies
 * lists the valid countries"), written in the terms of the surface that carries the error: REST
 * names a path, MCP a tool. The error itself only names the operation (errors/api-error.ts).
 */
import type { ErrorDescription } from "../1-errors/describe";
import type { AnyDeclaration } from "./declaration";
import { DECLARATIONS } from "./operations";

const byName = new Map(DECLARATIONS.map((d) => [`${d.group}.${d.name}`, d as AnyDeclaration]));

/** How a surface names an operation, or null when it does not serve it. */
export type OperationNamer = (declaration: AnyDeclaration) => string | null;

/** The description with its pointer written into `detail`, when it has one this surface can name. */
export function withSeeAlso(description: ErrorDescription, nameOf: OperationNamer): ErrorDescription {
  const { see } = description;
  if (!see) return description;
  const declaration = byName.get(see.operation);
  const name = declaration ? nameOf(declaration) : null;
  return name ? { ...description, detail: `${description.detail} ${name} ${see.says}.` } : description;
}

/** MCP's names: the tool, for an operation that has one. */
export const toolNamer: OperationNamer = (declaration) =>
  declaration.tool ? `The tool ${declaration.tool.name}` : null;
