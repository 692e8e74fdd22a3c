/**
 * Validates HTTP responses against the served OpenAPI document with Ajv (JSON Schema 2020-12, the
 * dialect of OpenAPI 3.1): the status must be documented for the operation, and the body must
 * match the documented schema of its content type.
 */
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

// biome-ignore lint/suspicious/noExplicitAny: walking a JSON document
type Json = Record<string, any>;

export interface CheckedResponse {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read payload fields freely
  body: any;
}

export function responseValidator(document: Json) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(document, "openapi");
  const templates = Object.keys(document.paths).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`),
  }));
  const pointerPart = (part: string) => part.replace(/~/g, "~0").replace(/\//g, "~1");

  /** Throws with the reasons when the response does not match the document. */
  return function validate(method: string, apiPath: string, response: CheckedResponse): void {
    const pathname = new URL(apiPath, "http://x").pathname;
    const match = templates.find((t) => t.pattern.test(pathname));
    const contentType = response.headers.get("content-type")?.split(";")[0] ?? "";
    if (!match) {
      // Not an operation: only a problem can answer.
      if (contentType !== "application/problem+json") throw new Error(`${pathname}: ${contentType} on an unknown path`);
      const ok = ajv.validate({ $ref: "openapi#/components/schemas/Problem" }, response.body);
      if (!ok) throw new Error(`${pathname}: ${ajv.errorsText()}`);
      return;
    }
    const operation = document.paths[match.template][method.toLowerCase()];
    if (!operation) {
      if (response.status !== 405) throw new Error(`${method} ${match.template} is not documented`);
      return;
    }
    const documented = operation.responses[String(response.status)];
    if (!documented) throw new Error(`${method} ${match.template}: status ${response.status} is not documented`);
    if (!documented.content) {
      if (response.text !== "") throw new Error(`${method} ${match.template}: ${response.status} must have no body`);
      return;
    }
    if (!documented.content[contentType])
      throw new Error(`${method} ${match.template}: ${response.status} with undocumented ${contentType}`);
    // A file (CSV, BibTeX, a ZIP archive) is documented by its type; its bytes are the export tests' to check.
    if (!/json/.test(contentType)) return;
    const pointer = [
      "paths",
      match.template,
      method.toLowerCase(),
      "responses",
      String(response.status),
      "content",
      contentType,
      "schema",
    ]
      .map(pointerPart)
      .join("/");
    if (!ajv.validate({ $ref: `openapi#/${pointer}` }, response.body))
      throw new Error(`${method} ${match.template} ${response.status}: ${ajv.errorsText()}`);
  };
}
