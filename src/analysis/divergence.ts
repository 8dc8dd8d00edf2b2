// Jensen–Shannon divergence (SPEC §4), natural logs, 0·log 0 = 0, so 0 ≤ JSD ≤ ln 2: for one pair of
// distributions, and batched over the bootstrap replicates of two cells (the analysis' inner loops).
// The batched kernels call only functions of this module: vitest's module runner turns imported
// functions into getter calls that V8 does not inline, which made the benchmark 5× slower.

/** `−t·ln t` with the convention 0·ln 0 = 0. */
export function entropyTerm(t: number): number {
  return t > 0 ? -t * Math.log(t) : 0;
}

/** Clip floating-point noise so a JSD computed as a difference of entropies stays in [0, ln 2]. */
function clampJsd(jsd: number): number {
  return Math.min(Math.max(jsd, 0), Math.LN2);
}

/**
 * JSD(p, q) = ½ KL(p‖m) + ½ KL(q‖m) with m = (p + q)/2, for probability vectors over the same actions,
 * computed as H(m) − (H(p) + H(q))/2 (the same quantity: KL(p‖m) = −H(p) − Σ p ln m).
 */
export function jensenShannon(p: ArrayLike<number>, q: ArrayLike<number>): number {
  if (p.length !== q.length) {
    throw new Error(
      `Distributions over ${p.length} and ${q.length} actions cannot be compared; both need the same actions.`,
    );
  }
  let hm = 0;
  let hp = 0;
  let hq = 0;
  for (let a = 0; a < p.length; a++) {
    const pa = p[a] as number;
    const qa = q[a] as number;
    hm += entropyTerm((pa + qa) / 2);
    hp += entropyTerm(pa);
    hq += entropyTerm(qa);
  }
  return clampJsd(hm - (hp + hq) / 2);
}

/**
 * Entropy lookups for counts out of m: `terms[j] = −(j/m)·ln(j/m)`, and for two actions
 * `binary[x] = terms[x] + terms[m − x]`, a whole entropy in one lookup.
 */
export interface EntropyTable {
  readonly m: number;
  readonly terms: Float64Array;
  readonly binary: Float64Array;
}

export function entropyTable(m: number): EntropyTable {
  const terms = new Float64Array(m + 1);
  for (let j = 0; j <= m; j++) terms[j] = entropyTerm(j / m);
  const binary = new Float64Array(m + 1);
  for (let x = 0; x <= m; x++) binary[x] = (terms[x] as number) + (terms[m - x] as number);
  return { m, terms, binary };
}

// Batched kernels. Replicate r of a cell with k actions is counts[r·k .. r·k + k).

/**
 * Entropy and size of each of B replicates of one cell; `table` is for the cell's usual size and is
 * used whenever a replicate has that size (always, except under session resampling).
 */
export function cellEntropies(
  counts: Int32Array,
  k: number,
  table: EntropyTable,
  B: number,
  entropy: Float64Array,
  sizes: Int32Array,
): void {
  const { m, terms, binary } = table;
  for (let r = 0; r < B; r++) {
    const at = r * k;
    let n = 0;
    for (let j = 0; j < k; j++) n += counts[at + j] as number;
    sizes[r] = n;
    let h = 0;
    if (n !== m) {
      for (let j = 0; j < k; j++) h += entropyTerm((counts[at + j] as number) / n);
    } else if (k === 2) {
      h = binary[counts[at] as number] as number;
    } else {
      for (let j = 0; j < k; j++) h += terms[counts[at + j] as number] as number;
    }
    entropy[r] = h;
  }
}

/**
 * JSD of two cells in each of B replicates from their entropies (`cellEntropies`); `mixture` is the table
 * over j/2n, usable when both replicates have n decisions, else the mixture entropy is computed with logs.
 */
export function pairJsd(
  countsA: Int32Array,
  countsB: Int32Array,
  entropyA: Float64Array,
  entropyB: Float64Array,
  sizesA: Int32Array,
  sizesB: Int32Array,
  k: number,
  mixture: EntropyTable | null,
  B: number,
  jsd: Float64Array,
): void {
  const half = mixture === null ? -1 : mixture.m / 2;
  for (let r = 0; r < B; r++) {
    const at = r * k;
    const na = sizesA[r] as number;
    const nb = sizesB[r] as number;
    let hm = 0;
    if (mixture === null || na !== half || nb !== half) {
      for (let j = 0; j < k; j++) {
        hm += entropyTerm(((countsA[at + j] as number) / na + (countsB[at + j] as number) / nb) / 2);
      }
    } else if (k === 2) {
      hm = mixture.binary[(countsA[at] as number) + (countsB[at] as number)] as number;
    } else {
      for (let j = 0; j < k; j++) {
        hm += mixture.terms[(countsA[at + j] as number) + (countsB[at + j] as number)] as number;
      }
    }
    jsd[r] = clampJsd(hm - ((entropyA[r] as number) + (entropyB[r] as number)) / 2);
  }
}

/**
 * The common one-shot case in one pass: two actions and both cells of the same fixed size n, so every
 * entropy is one lookup (`cell` over j/n, `mixture` over j/2n). Same values as
 * `cellEntropies` + `pairJsd`, without their intermediate rows.
 */
export function binaryPairJsd(
  countsA: Int32Array,
  countsB: Int32Array,
  cell: EntropyTable,
  mixture: EntropyTable,
  B: number,
  jsd: Float64Array,
): void {
  const hCell = cell.binary;
  const hMixture = mixture.binary;
  for (let r = 0; r < B; r++) {
    const xa = countsA[2 * r] as number;
    const xb = countsB[2 * r] as number;
    jsd[r] = clampJsd((hMixture[xa + xb] as number) - ((hCell[xa] as number) + (hCell[xb] as number)) / 2);
  }
}
