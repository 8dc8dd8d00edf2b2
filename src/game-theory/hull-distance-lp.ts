// The total-variation distance from a distribution p to the convex hull of many points, as a linear
// programme solved by the simplex method: trying every vertex of the piecewise-linear objective (what
// nearestInHull does for a few points) needs C(m + k, m − 1) linear solves, about ten million for the 31
// extreme row strategies of one component of a six-action game whose row player is indifferent.
//
//   minimise ½ Σ_a (s⁺_a + s⁻_a)  subject to  Σ_i λ_i x_i[a] + s⁺_a − s⁻_a = p_a (each action a),
//                                              Σ_i λ_i = 1,  λ, s⁺, s⁻ ≥ 0.
//
// The start is feasible without a first phase: λ = the first point, each s the gap p − x₁ on its side.
// Bland's rule (the lowest-numbered improving column, the lowest-numbered leaving row among ties) keeps
// the method from cycling on the degenerate vertices these programmes are full of.

const EPSILON = 1e-12;
const MAX_PIVOTS = 100_000;

/** The weights λ of the hull point nearest p in total variation (the optimum of the programme above). */
export function hullWeightsByLinearProgramme(
  p: readonly number[],
  points: readonly (readonly number[])[],
): number[] {
  const m = points.length;
  const k = p.length;
  // Columns: λ_0..λ_{m−1}, s⁺_0..s⁺_{k−1}, s⁻_0..s⁻_{k−1}, then the right-hand side.
  const columns = m + 2 * k;
  const plus = (a: number): number => m + a;
  const minus = (a: number): number => m + k + a;
  const cost = Array.from({ length: columns }, (_, j) => (j < m ? 0 : 0.5));
  const tableau: number[][] = [];
  for (let a = 0; a < k; a++) {
    const row = new Array<number>(columns + 1).fill(0);
    points.forEach((x, i) => {
      row[i] = x[a] as number;
    });
    row[plus(a)] = 1;
    row[minus(a)] = -1;
    row[columns] = p[a] as number;
    tableau.push(row);
  }
  const sumRow = new Array<number>(columns + 1).fill(0);
  for (let i = 0; i < m; i++) sumRow[i] = 1;
  sumRow[columns] = 1;
  tableau.push(sumRow);

  const basis: number[] = [];
  const first = points[0] as readonly number[];
  for (let a = 0; a < k; a++) basis.push((p[a] as number) - (first[a] as number) >= 0 ? plus(a) : minus(a));
  basis.push(0);
  basis.forEach((column, row) => {
    pivot(tableau, row, column);
  });

  for (let step = 0; step < MAX_PIVOTS; step++) {
    const entering = improvingColumn(tableau, basis, cost, columns);
    if (entering === null) break;
    const leaving = leavingRow(tableau, basis, entering, columns);
    if (leaving === null) break; // unbounded cannot happen (the objective is ≥ 0); stop rather than loop
    pivot(tableau, leaving, entering);
    basis[leaving] = entering;
  }

  const weights = new Array<number>(m).fill(0);
  basis.forEach((column, row) => {
    if (column < m) weights[column] = Math.max(0, (tableau[row] as number[])[columns] as number);
  });
  const total = weights.reduce((s, w) => s + w, 0);
  return weights.map((w) => w / total);
}

/** Makes `column` the unit vector of `row`: divide the row by the pivot, clear the column elsewhere. */
function pivot(tableau: number[][], row: number, column: number): void {
  const pivotRow = tableau[row] as number[];
  const value = pivotRow[column] as number;
  for (let j = 0; j < pivotRow.length; j++) pivotRow[j] = (pivotRow[j] as number) / value;
  tableau.forEach((other, r) => {
    if (r === row) return;
    const factor = other[column] as number;
    if (factor === 0) return;
    for (let j = 0; j < other.length; j++) other[j] = (other[j] as number) - factor * (pivotRow[j] as number);
  });
}

/** Bland's rule: the first column whose reduced cost is negative, or null at the optimum. */
function improvingColumn(
  tableau: readonly (readonly number[])[],
  basis: readonly number[],
  cost: readonly number[],
  columns: number,
): number | null {
  for (let j = 0; j < columns; j++) {
    if (basis.includes(j)) continue;
    let reduced = cost[j] as number;
    basis.forEach((b, row) => {
      reduced -= (cost[b] as number) * ((tableau[row] as readonly number[])[j] as number);
    });
    if (reduced < -EPSILON) return j;
  }
  return null;
}

/** The ratio test, ties to the row whose basic column is lowest (Bland). */
function leavingRow(
  tableau: readonly (readonly number[])[],
  basis: readonly number[],
  entering: number,
  columns: number,
): number | null {
  let best: number | null = null;
  let bestRatio = Number.POSITIVE_INFINITY;
  tableau.forEach((row, r) => {
    const coefficient = row[entering] as number;
    if (coefficient <= EPSILON) return;
    const ratio = Math.max(0, row[columns] as number) / coefficient;
    if (
      ratio < bestRatio - EPSILON ||
      (Math.abs(ratio - bestRatio) <= EPSILON && (basis[r] as number) < (basis[best as number] as number))
    ) {
      best = r;
      bestRatio = ratio;
    }
  });
  return best;
}
