/** Names fixed by the published interface spec (../shared/spec/interface-spec.md): the tests' oracle. */
export const SPEC_TOOL_NAMES = [
  "service_geographies_list",
  "service_market_get_capaindex",
  "service_market_get_delta",
  "service_market_get_servicemax",
  "service_market_get_snapshot",
  "service_markets_list",
];
