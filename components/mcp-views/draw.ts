/**
 * The charts themselves, as SVG: the delta map (Innovation against Control, a streak per product
 * from published to under controls) and ranked bars with a ghost ceiling.
 */
import { type GhostBar, rankLabel, type Streak } from "../../server/2-charts/chart-data";
import { svg, tooltip } from "./svg";

const WIDTH = 640;
const MAP_HEIGHT = 420;
const PAD = { top: 16, right: 16, bottom: 44, left: 52 };

export function drawMap(streaks: Streak[]): SVGSVGElement {
  const w = WIDTH - PAD.left - PAD.right;
  const h = MAP_HEIGHT - PAD.top - PAD.bottom;
  const x = (control: number) => PAD.left + (control / 100) * w;
  const y = (innovation: number) => PAD.top + h - (innovation / 100) * h;
  const grid = [0, 25, 50, 75, 100].flatMap((t) => [
    svg("line", { x1: x(t), x2: x(t), y1: y(0), y2: y(100), class: "grid" }),
    svg("line", { x1: x(0), x2: x(100), y1: y(t), y2: y(t), class: "grid" }),
    svg("text", { x: x(t), y: y(0) + 16, "text-anchor": "middle", class: "tick" }, [String(t)]),
    svg("text", { x: x(0) - 8, y: y(t) + 4, "text-anchor": "end", class: "tick" }, [String(t)]),
  ]);
  // Name a product where it ends up; an unavailable one where it was (they all end at 0, 0).
  const label = (s: Streak) => {
    const at = s.available ? s.to : s.from;
    const right = at.x > 70;
    return svg(
      "text",
      { x: x(at.x) + (right ? -8 : 8), y: y(at.y) - 6, "text-anchor": right ? "end" : "start", class: "label" },
      [s.available ? s.name : `${s.name} (unavailable)`],
    );
  };
  const marks = streaks.map((s) =>
    svg("g", { class: `mark${s.available ? "" : " unavailable"}`, "data-product": s.productId, tabindex: 0 }, [
      tooltip(
        `${s.name} (${s.vendor})\nPublished: Innovation ${s.from.y}, Control ${s.from.x}\n` +
          (s.available
            ? `Under controls: Innovation ${s.to.y}, Control ${s.to.x}`
            : "Unavailable under these controls"),
      ),
      ...(s.moves
        ? [
            svg("line", {
              x1: x(s.from.x),
              y1: y(s.from.y),
              x2: x(s.to.x),
              y2: y(s.to.y),
              class: "streak",
              "marker-end": "url(#arrow)",
            }),
          ]
        : []),
      svg("circle", { cx: x(s.from.x), cy: y(s.from.y), r: 5, class: "published" }),
      svg("circle", { cx: x(s.to.x), cy: y(s.to.y), r: 5, class: "under-controls" }),
      label(s),
    ]),
  );
  return svg(
    "svg",
    {
      viewBox: `0 0 ${WIDTH} ${MAP_HEIGHT}`,
      role: "img",
      "aria-label": "Innovation against Control",
      "data-chart": "map",
    },
    [
      svg("defs", {}, [
        svg(
          "marker",
          {
            id: "arrow",
            viewBox: "0 0 10 10",
            refX: 9,
            refY: 5,
            markerWidth: 6,
            markerHeight: 6,
            orient: "auto-start-reverse",
          },
          [svg("path", { d: "M 0 0 L 10 5 L 0 10 z", class: "arrow" })],
        ),
      ]),
      ...grid,
      svg("text", { x: PAD.left + w / 2, y: MAP_HEIGHT - 6, "text-anchor": "middle", class: "axis" }, ["Control →"]),
      svg(
        "text",
        {
          x: 14,
          y: PAD.top + h / 2,
          transform: `rotate(-90 14 ${PAD.top + h / 2})`,
          "text-anchor": "middle",
          class: "axis",
        },
        ["Innovation →"],
      ),
      ...marks,
    ],
  );
}

const ROW = 26;
const LABEL = 190;

export function drawBars(bars: GhostBar[], { ghost }: { ghost: boolean }): SVGSVGElement {
  const height = bars.length * ROW + 28;
  const w = WIDTH - LABEL - 56;
  const x = (value: number) => LABEL + (value / 100) * w;
  const rows = bars.map((bar, i) => {
    const top = 8 + i * ROW;
    return svg(
      "g",
      { class: `mark${bar.available ? "" : " unavailable"}`, "data-product": bar.productId, tabindex: 0 },
      [
        tooltip(
          `${rankLabel(bar)} ${bar.name} (${bar.vendor})\n` +
            (!bar.available
              ? "Unavailable under these controls: no offering meets every control."
              : ghost
                ? `Keeps Innovation ${bar.value} of ${bar.ceiling}; gives up ${bar.givesUp}`
                : `Innovation ${bar.value}`),
        ),
        svg("text", { x: LABEL - 8, y: top + 15, "text-anchor": "end", class: "label" }, [
          `${rankLabel(bar)} ${bar.name}`,
        ]),
        // An unavailable product keeps nothing: no bar, no ghost at its published length.
        ...(bar.available
          ? [
              ...(ghost
                ? [svg("rect", { x: x(0), y: top + 3, width: x(bar.ceiling) - x(0), height: ROW - 8, class: "ghost" })]
                : []),
              svg("rect", {
                x: x(0),
                y: top + 3,
                width: Math.max(x(bar.value) - x(0), 0),
                height: ROW - 8,
                class: "bar",
              }),
              svg("text", { x: x(Math.max(bar.value, ghost ? bar.ceiling : 0)) + 6, y: top + 15, class: "value" }, [
                ghost && bar.givesUp !== null && bar.givesUp > 0 ? `${bar.value} (−${bar.givesUp})` : String(bar.value),
              ]),
            ]
          : [svg("text", { x: x(0) + 4, y: top + 15, class: "value" }, ["unavailable under these controls"])]),
      ],
    );
  });
  return svg(
    "svg",
    { viewBox: `0 0 ${WIDTH} ${height}`, role: "img", "aria-label": "Ranking by Innovation", "data-chart": "bars" },
    rows,
  );
}
