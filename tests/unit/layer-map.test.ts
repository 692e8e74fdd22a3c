import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { layerMap, roomsOfNoLayer } from "../../scripts/docs-layers";

describe("the layer map (npm run docs:layers)", () => {
  it("draws the floors top first, each room with what it holds", () => {
    const map = layerMap([
      { name: "top", rooms: [["app/", "routes"]] },
      {
        name: "bottom",
        rooms: [
          ["server/domain/", "types"],
          ["server/errors/", "codes"],
        ],
      },
    ]);
    expect(map.split("\n")).toEqual([
      "```text",
      "top",
      "  app/                   routes",
      "        │",
      "bottom",
      "  server/domain/         types",
      "  server/errors/         codes",
      "```",
    ]);
  });

  it("is the map docs/development.md shows", () => {
    expect(readFileSync("docs/development.md", "utf8")).toContain(`\n${layerMap()}\n`);
  });

  it("places every folder of server/ on a floor, and names one left out", () => {
    expect(roomsOfNoLayer()).toEqual([]);
    expect(roomsOfNoLayer([{ name: "one", rooms: [["server/domain/", "types"]] }])).toContain("server/mcp/");
  });
});
