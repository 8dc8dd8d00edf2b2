/**
 * Holm's step-down adjustment: with p sorted ascending, p_(i) · (m − i + 1), made monotone, at most 1.
 * It keeps the family-wise error rate at the level for any dependence between the tests.
 */
export function holm(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((p, i) => ({ p, i })).sort((x, y) => x.p - y.p);
  const adjusted = new Array<number>(m).fill(1);
  let running = 0;
  order.forEach(({ p, i }, rank) => {
    running = Math.max(running, Math.min(1, p * (m - rank)));
    adjusted[i] = running;
  });
  return adjusted;
}
