/**
 * Rage clicks: `count` clicks (default 3), each within `radius` pixels (default 30) of the series'
 * first click and within `windowMs` (default 1 s) of it. A series reports once, at its `count`th
 * click; a click outside the radius or the window starts a new series.
 */
export function createRageclickDetector(radius: number, windowMs: number, count: number): (x: number, y: number, time: number) => boolean {
  let first: [number, number, number] | undefined;
  let clicks = 0;
  return (x, y, time) => {
    if (first && Math.hypot(x - first[0], y - first[1]) <= radius && time - first[2] <= windowMs) clicks++;
    else {
      first = [x, y, time];
      clicks = 1;
    }
    return clicks === count;
  };
}
