import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { layerMap, misnumberedRooms, roomsOfNoLayer, shortLayerMap } from "../../scripts/docs-layers";

describe("the layer map (npm run docs:layers)", () => {
  it("draws the floors top first, each room with what it holds", () => {
    const map = layerMap([
      { name: "top", rooms: [["app/", "routes"]] },
      {
        name: "bottom",
        rooms: [
          ["server/1-domain/", "types"],
          ["server/1-errors/", "codes"],
        ],
      },
    ]);
    expect(map.split("\n")).toEqual([
      "```text",
      "top",
      "  app/                   routes",
      "        │",
      "bottom",
      "  server/1-domain/       types",
      "  server/1-errors/       codes",
      "```",
    ]);
  });

  it("draws the README's short map one line per floor, wrapped under the rooms", () => {
    const rooms = Array.from({ length: 9 }, (_, i): [string, string] => [`server/room-number-${i}/`, ""]);
    const lines = shortLayerMap([
      { name: "top", rooms: [["app/", ""]] },
      { name: "wide floor", rooms },
    ]).split("\n");
    expect(lines[1]).toBe("top         app/");
    expect(lines[2]?.startsWith("wide floor  server/room-number-0/ server/room-number-1/")).toBe(true);
    expect(lines.slice(1, -1).every((line) => line.length <= 100)).toBe(true);
    expect(lines.at(-2)?.startsWith(`${" ".repeat(12)}server/room-number-`)).toBe(true);
    expect(lines.join(" ").match(/room-number-\d/g)).toHaveLength(9);
  });

  it("is the map docs/development.md and README.md show", () => {
    expect(readFileSync("docs/development.md", "utf8")).toContain(`\n${layerMap()}\n`);
    expect(readFileSync("README.md", "utf8")).toContain(`\n${shortLayerMap()}\n`);
  });

  it("places every folder of server/ on a floor, and names one left out", () => {
    expect(roomsOfNoLayer()).toEqual([]);
    expect(roomsOfNoLayer([{ name: "one", rooms: [["server/1-domain/", "types"]] }])).toContain("server/8-mcp/");
  });

  it("numbers every room of server/ by its floor, and names one misnumbered", () => {
    expect(misnumberedRooms()).toEqual([]);
    const misnumbered = misnumberedRooms([
      { name: "entry points", rooms: [["app/", "routes"]] },
      {
        name: "surfaces",
        rooms: [
          ["server/2-rest/", "the door"],
          ["components/", "React"],
        ],
      },
      { name: "storage", rooms: [["db/", "schema"]] },
      {
        name: "domain",
        rooms: [
          ["server/1-domain/", "types"],
          ["server/2-errors/", "codes"],
        ],
      },
    ]);
    // Floors are counted among those holding a room of server/: storage (db/ only) takes no number.
    expect(misnumbered).toEqual(["server/2-errors/ is on floor 1 (domain): name it server/1-…"]);
  });
});
