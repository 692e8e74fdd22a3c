/**
 * The operations in their order everywhere (the OpenAPI document, the tools, the docs tables, the
 * credits page): by group, then by path. declared.ts lists them, one line each; code that needs one
 * declaration imports it from its own file.
 */
import type { Operation } from "../../1-domain/operations";
import { type AnyDeclaration, type Group, operationOf } from "../declaration";
import * as declared from "./declared";

/** Each declaration by the name code uses for it. */
export const DECLARED = declared satisfies Record<string, AnyDeclaration>;

type Declared = (typeof DECLARED)[keyof typeof DECLARED];

/** The groups in the order an integrator meets them: the catalogue, the readings, the files, the account. */
const GROUP_ORDER: readonly Group[] = ["markets", "geographies", "readings", "exports", "account"];

const byGroupThenPath = (a: Declared, b: Declared) =>
  GROUP_ORDER.indexOf(a.group) - GROUP_ORDER.indexOf(b.group) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

export const DECLARATIONS: readonly Declared[] = Object.values(DECLARED).sort(byGroupThenPath);

/** Each operation's row (ledger name, scope, price, path, words), derived from its declaration. */
export const OPERATIONS = Object.fromEntries(
  Object.entries(DECLARED).map(([key, declaration]) => [key, operationOf(declaration)]),
) as Record<keyof typeof DECLARED, Operation>;
