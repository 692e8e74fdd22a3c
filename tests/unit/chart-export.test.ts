/** What a chart draws beyond the transforms: arrowhead geometry and signed changes, by hand (CSV: csv.test.ts). */
import { describe, expect, it } from "vitest";
import { arrowHead, signed } from "@/server/2-charts/geometry";

describe("arrowhead of a delta streak", () => {
  // Corners sit 7 px back from the tip, turned π/7 either side: cos π/7 = 0.90097, sin π/7 = 0.43388.
  it("points right for a streak moving right", () => {
    // 10 − 7·0.90097 = 3.69; ±7·0.43388 = ±3.04
    expect(arrowHead({ x: 0, y: 0 }, { x: 10, y: 0 })).toBe("10.0,0.0 3.7,-3.0 3.7,3.0");
  });

  it("points up (towards more Innovation) for a streak moving up the screen", () => {
    // angle −π/2: corners at x = 5 ∓ 7·sin π/7 = 1.96 / 8.04, y = 0 + 7·cos π/7 = 6.31
    expect(arrowHead({ x: 5, y: 20 }, { x: 5, y: 0 })).toBe("5.0,0.0 2.0,6.3 8.0,6.3");
  });

  it("points down-left for a product losing Innovation and Control", () => {
    // angle 3π/4 (135°); corners at 160.7° and 109.3°: (0 + 7·0.94388, 10 − 7·0.33028) = (6.61, 7.69)
    // and (0 + 7·0.33028, 10 − 7·0.94388) = (2.31, 3.39)
    expect(arrowHead({ x: 10, y: 0 }, { x: 0, y: 10 })).toBe("0.0,10.0 6.6,7.7 2.3,3.4");
  });
});

describe("signed changes", () => {
  it("writes a plus for gains, a real minus for losses, and no sign for zero", () => {
    expect(signed(3)).toBe("+3.0");
    expect(signed(-12.5)).toBe("−12.5");
    expect(signed(0)).toBe("0.0");
    expect(signed(-0)).toBe("0.0");
    expect(signed(0.04)).toBe("0.0");
    expect(signed(-0.06)).toBe("−0.1");
  });
});
