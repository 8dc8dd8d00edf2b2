// The points of a segment a–b of strategies (an edge of a degenerate game's equilibrium set) nearest a
// distribution p: in total variation a whole sub-segment can be equally near (the distance is piecewise
// linear along it), so "the nearest point" is not one point until a second distance, JSD, picks among them.

const TOLERANCE = 1e-12;

/** The point a + t·(b − a), with coordinates that do not vary along the segment copied, not recomputed. */
export function pointOnSegment(a: readonly number[], b: readonly number[], t: number): number[] {
  return a.map((ai, i) => {
    const bi = b[i] as number;
    if (ai === bi) return ai;
    if (t <= 0) return ai;
    if (t >= 1) return bi;
    return ai + t * (bi - ai);
  });
}

function totalVariationAt(p: readonly number[], q: readonly number[]): number {
  return p.reduce((s, pi, i) => s + Math.abs(pi - (q[i] as number)), 0) / 2;
}

/**
 * The sub-segment [lo, hi] (in t, 0 at a, 1 at b) of the points nearest p in total variation, and that
 * distance. Total variation is convex and piecewise linear in t with breaks where a coordinate crosses p's,
 * so its minimum is at an end or a break, and the nearest points run from the first such point attaining it
 * to the last.
 */
export function totalVariationNearestOnSegment(
  p: readonly number[],
  a: readonly number[],
  b: readonly number[],
): { lo: number; hi: number; totalVariation: number } {
  const ts = [0, 1];
  a.forEach((ai, i) => {
    const d = (b[i] as number) - ai;
    if (d === 0) return;
    const t = ((p[i] as number) - ai) / d;
    if (t > 0 && t < 1) ts.push(t);
  });
  ts.sort((x, y) => x - y);
  const distances = ts.map((t) => totalVariationAt(p, pointOnSegment(a, b, t)));
  const least = Math.min(...distances);
  const nearest = ts.filter((_, k) => (distances[k] as number) <= least + TOLERANCE);
  return { lo: nearest[0] as number, hi: nearest[nearest.length - 1] as number, totalVariation: least };
}

/**
 * The t in [lo, hi] whose point is nearest p in Jensen–Shannon divergence, or "flat" when JSD is the same
 * all along (every coordinate that varies has p = 0: each then adds q·ln 2 / 2, and their sum is fixed).
 * Along the segment JSD is otherwise strictly convex, with derivative ½ Σ dᵢ ln(qᵢ / (pᵢ + qᵢ)) (d = b − a);
 * where two coordinates vary (a segment between pure strategies, or any segment of a two-action game)
 * its zero is qᵢ / qⱼ = pᵢ / pⱼ, solved exactly; otherwise it is found by bisection to the last bit.
 */
export function jsdNearestOnSegment(
  p: readonly number[],
  a: readonly number[],
  b: readonly number[],
  lo: number,
  hi: number,
): number | "flat" {
  const varying = a.map((_, i) => i).filter((i) => (b[i] as number) !== (a[i] as number));
  if (varying.every((i) => (p[i] as number) === 0)) return "flat";
  const clamp = (t: number): number => Math.min(hi, Math.max(lo, t));
  if (varying.length === 2) {
    const [i, j] = varying as [number, number];
    const pi = p[i] as number;
    const pj = p[j] as number;
    // q_i + q_j is the same at every point of the segment; split it in p's proportion.
    const total = (a[i] as number) + (a[j] as number);
    const qi = (total * pi) / (pi + pj);
    return clamp((qi - (a[i] as number)) / ((b[i] as number) - (a[i] as number)));
  }
  const slope = (t: number): number => {
    const q = pointOnSegment(a, b, t);
    return varying.reduce((s, i) => {
      const pi = p[i] as number;
      const qi = q[i] as number;
      const d = (b[i] as number) - (a[i] as number);
      if (pi === 0) return s;
      if (qi <= 0) return s + (d > 0 ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY);
      return s + d * Math.log(qi / (pi + qi));
    }, 0);
  };
  if (slope(lo) >= 0) return lo;
  if (slope(hi) <= 0) return hi;
  let left = lo;
  let right = hi;
  for (let step = 0; step < 200; step++) {
    const middle = (left + right) / 2;
    if (middle <= left || middle >= right) break;
    if (slope(middle) < 0) left = middle;
    else right = middle;
  }
  return (left + right) / 2;
}
