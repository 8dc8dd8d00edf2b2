// Dense square linear systems for the equilibrium computations: small (at most 7×7), so plain Gaussian
// elimination with partial pivoting is both exact enough and the easiest thing to audit.

/** A pivot this small relative to the largest entry means the system has no unique solution. */
const SINGULAR_RELATIVE_PIVOT = 1e-12;

/**
 * Solves `a · x = b` for a square matrix `a`; returns null when `a` is singular (no unique solution).
 * The inputs are not modified.
 */
export function solveLinearSystem(a: readonly (readonly number[])[], b: readonly number[]): number[] | null {
  const n = b.length;
  // Augmented rows [a | b], copied so elimination can work in place.
  const rows = a.map((row, i) => [...row, b[i] as number]);
  const scale = Math.max(1, ...rows.flat().map(Math.abs));
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) {
      if (Math.abs(at(rows, r, col)) > Math.abs(at(rows, pivot, col))) pivot = r;
    }
    if (Math.abs(at(rows, pivot, col)) <= SINGULAR_RELATIVE_PIVOT * scale) return null;
    [rows[col], rows[pivot]] = [rows[pivot] as number[], rows[col] as number[]];
    const pivotRow = rows[col] as number[];
    for (let r = col + 1; r < n; r++) {
      const row = rows[r] as number[];
      const factor = (row[col] as number) / (pivotRow[col] as number);
      if (factor === 0) continue;
      for (let c = col; c <= n; c++) row[c] = (row[c] as number) - factor * (pivotRow[c] as number);
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let sum = at(rows, r, n);
    for (let c = r + 1; c < n; c++) sum -= at(rows, r, c) * (x[c] as number);
    x[r] = sum / at(rows, r, r);
  }
  return x;
}

function at(rows: readonly (readonly number[])[], r: number, c: number): number {
  return (rows[r] as readonly number[])[c] as number;
}
