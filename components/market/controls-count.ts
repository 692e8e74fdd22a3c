/** How many sovereign controls a geography engages, in words: "no controls", "1 control", "3 controls". */
export const controlsCount = (count: number) =>
  count === 0 ? "no controls" : `${count} control${count === 1 ? "" : "s"}`;
