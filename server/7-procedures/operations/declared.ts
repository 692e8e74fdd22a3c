/**
 * Every operation the API offers: one line per declaration file of this folder. Adding an
 * operation is its file and its line here; a file left out fails tests/unit/declarations.test.ts.
 * Their order everywhere (the OpenAPI document, the tools, the docs tables, the credits page) is
 * index.ts's: by group, then by path.
 */
export { accountAuditEvents } from "./account-audit-events";
export { accountLedger } from "./account-ledger";
export { accountOrganization } from "./account-organization";
export { accountPurchases } from "./account-purchases";
export { accountUsage } from "./account-usage";
export { availability } from "./availability";
export { capaindex } from "./capaindex";
export { changes } from "./changes";
export { citation } from "./citation";
export { delta } from "./delta";
export { exportFile } from "./export-file";
export { exportManifest } from "./export-manifest";
export { exportZip } from "./export-zip";
export { geographiesList } from "./geographies-list";
export { history } from "./history";
export { marketChangelog } from "./market-changelog";
export { marketGet } from "./market-get";
export { marketsList } from "./markets-list";
export { product } from "./product";
export { products } from "./products";
export { servicemax } from "./servicemax";
export { snapshot } from "./snapshot";
export { sovereignty } from "./sovereignty";
export { whatif } from "./whatif";
