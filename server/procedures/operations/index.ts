/**
 * Every operation the API offers, each declared once in this folder; this list is their order
 * everywhere (the OpenAPI document, the tools, the docs tables, the credits page). A declaration
 * file left out of it fails tests/unit/declarations.test.ts. Adding one is its import and its
 * line in DECLARED; code that needs one declaration imports it from its own file.
 */
import type { Operation } from "../../domain/operations";
import { type AnyDeclaration, operationOf } from "../declaration";
import { accountLedger } from "./account-ledger";
import { accountOrganization } from "./account-organization";
import { accountUsage } from "./account-usage";
import { availability } from "./availability";
import { capaindex } from "./capaindex";
import { changes } from "./changes";
import { citation } from "./citation";
import { delta } from "./delta";
import { exportFile } from "./export-file";
import { exportManifest } from "./export-manifest";
import { exportZip } from "./export-zip";
import { geographiesList } from "./geographies-list";
import { history } from "./history";
import { marketChangelog } from "./market-changelog";
import { marketGet } from "./market-get";
import { marketsList } from "./markets-list";
import { product } from "./product";
import { products } from "./products";
import { servicemax } from "./servicemax";
import { snapshot } from "./snapshot";
import { sovereignty } from "./sovereignty";
import { whatif } from "./whatif";

/** Each declaration by the name code uses for it; their order is the order everywhere. */
export const DECLARED = {
  marketsList,
  marketGet,
  marketChangelog,
  geographiesList,
  snapshot,
  capaindex,
  servicemax,
  delta,
  changes,
  products,
  product,
  sovereignty,
  history,
  availability,
  whatif,
  exportManifest,
  exportFile,
  exportZip,
  citation,
  accountOrganization,
  accountUsage,
  accountLedger,
} as const satisfies Record<string, AnyDeclaration>;

type Declared = (typeof DECLARED)[keyof typeof DECLARED];

export const DECLARATIONS: readonly Declared[] = Object.values(DECLARED);

/** Each operation's row (ledger name, scope, price, path, words), derived from its declaration. */
export const OPERATIONS = Object.fromEntries(
  Object.entries(DECLARED).map(([key, declaration]) => [key, operationOf(declaration)]),
) as Record<keyof typeof DECLARED, Operation>;
