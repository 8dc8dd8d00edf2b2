// Jensen–Shannon divergence (SPEC §4), natural logs, 0·log 0 = 0, so 0 ≤ JSD ≤ ln 2: for one pair of
// distributions, and batched over the bootstrap replicates of two cells (the analysis' inner loops).
// The batched kernels call only functions of this module: vitest's module runner turns imported
// functions into getter calls that V8 does not inline, which made the benchmark 5× slower.

/** `−t·ln t` with the convention 0·ln 0 = 0. */
export function entropyTerm(t: number): number {
  return t > 0 ? -t * Math.log(t) : 0;
}

/** Entropy of a Bernoulli distribution with rate t, in nats. */
export function bernoulliEntropy(t: number): number {
  return entropyTerm(t) + entropyTerm(1 - t);
}

/** JSD of two Bernoulli distributions (rates p and q of the first action), in nats. */
export function bernoulliJsd(p: number, q: number): number {
  return bernoulliJsdWith(p, q, bernoulliEntropy(p), bernoulliEntropy(q));
}

/**
 * `bernoulliJsd(p, q)` from the entropies of p and q, `hp` and `hq`, when the caller has them (the same
 * number: the same expression in the same order).
 */
export function bernoulliJsdWith(p: number, q: number, hp: number, hq: number): number {
  return clampJsd(bernoulliEntropy((p + q) / 2) - (hp + hq) / 2);
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
 * `xLogX[c] = c·ln c` and `logOf[c] = ln c` for counts c = 0..length − 1 (0·ln 0 = 0), grown on demand and
 * shared by every analysis: a replicate of size n ≠ m (session resampling) then has the entropy
 * H = ln n − Σ_j c_j ln c_j / n in k + 1 lookups instead of k logarithms.
 */
let xLogX = new Float64Array(0);
let logOf = new Float64Array(0);

function countLogs(max: number): void {
  if (max < xLogX.length) return;
  const length = Math.max(max + 1, 2 * xLogX.length, 1024);
  xLogX = new Float64Array(length);
  logOf = new Float64Array(length);
  logOf[0] = Number.NEGATIVE_INFINITY;
  for (let c = 1; c < length; c++) {
    const l = Math.log(c);
    logOf[c] = l;
    xLogX[c] = c * l;
  }
}

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
  let largest = 0;
  for (let r = 0; r < B; r++) {
    const at = r * k;
    let n = 0;
    for (let j = 0; j < k; j++) n += counts[at + j] as number;
    sizes[r] = n;
    if (n > largest) largest = n;
  }
  countLogs(largest);
  const xl = xLogX;
  const logs = logOf;
  for (let r = 0; r < B; r++) {
    const at = r * k;
    const n = sizes[r] as number;
    let h = 0;
    if (n !== m) {
      let sum = 0;
      for (let j = 0; j < k; j++) sum += xl[counts[at + j] as number] as number;
      h = (logs[n] as number) - sum / n;
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

/**
 * Entropy of a two-action replicate (x of n chose action 0) exactly as `cellEntropies` computes it: one
 * lookup in `table` when n is the cell's usual size, else ln n − (x ln x + (n − x) ln(n − x))/n from the
 * count tables (`countLogs` must cover n).
 */
function binaryEntropy(x: number, n: number, table: EntropyTable): number {
  return n !== table.m
    ? (logOf[n] as number) - ((xLogX[x] as number) + (xLogX[n - x] as number)) / n
    : (table.binary[x] as number);
}

/**
 * The mixture entropies of `binaryUnitJsd` where the replicates' sizes vary (sessions resampled) or differ
 * between framings, remembered by the counts they are computed from: a replicate's pair of framings
 * recurs across replicates (a few hundred distinct (x, n) pairs per unit), and a lookup costs a fraction
 * of the two logarithms. Each slot holds the value computed from its key by the very expression it
 * replaces, so a hit returns the same number, bit for bit. Keys pack two framings' (x, n), each count
 * below MEMO_SIDE, into 32 bits; larger counts are computed every time. Direct-mapped, kept per thread
 * (the values never depend on the analysis), one table for the extremes' mixture and one for the planned
 * pair's (a different expression, see below).
 */
const MEMO_SIDE = 256;
const MEMO_BITS = 14;
const MEMO_SHIFT = 32 - MEMO_BITS;
/** Fibonacci hashing's multiplier (2³²/φ): spreads the packed keys over the slots. */
const MEMO_HASH = 0x9e3779b1 | 0;
/** No key: x ≤ n, so x = 1 of n = 0 never occurs. */
const NO_KEY = 1 << 24;
const mixtureKeys = new Int32Array(1 << MEMO_BITS).fill(NO_KEY);
const mixtureValues = new Float64Array(1 << MEMO_BITS);
const plannedKeys = new Int32Array(1 << MEMO_BITS).fill(NO_KEY);
const plannedValues = new Float64Array(1 << MEMO_BITS);

/**
 * `ranks[(n << 8) | x]` = the rank of x/n among the fractions x/n, 0 ≤ x ≤ n, 1 ≤ n ≤ the sizes covered
 * (below MEMO_SIDE), in increasing order, equal fractions (1/2, 2/4) with equal ranks: comparing ranks
 * is comparing the shares exactly, as x·n' < x'·n does. Grown on demand (ranks renumbered) and kept per
 * thread. The doubles x/n order them exactly: equal fractions round to the same double, and two distinct
 * ones with denominators below 2⁸ differ by more than 2⁻¹⁶, far above a double's spacing.
 */
let rankedUpTo = 0;
const rankTable = new Int32Array(MEMO_SIDE * MEMO_SIDE);

function fractionRanks(largest: number): Int32Array {
  if (largest <= rankedUpTo) return rankTable;
  const upTo = Math.min(MEMO_SIDE - 1, Math.max(largest, 2 * rankedUpTo, 32));
  const values: number[] = [];
  for (let n = 1; n <= upTo; n++) for (let x = 0; x <= n; x++) values.push(x / n);
  const distinct = Float64Array.from(new Set(values)).sort();
  const rankOf = new Map<number, number>();
  distinct.forEach((v, i) => {
    rankOf.set(v, i);
  });
  for (let n = 1; n <= upTo; n++) {
    for (let x = 0; x <= n; x++) rankTable[(n << 8) | x] = rankOf.get(x / n) as number;
  }
  rankedUpTo = upTo;
  return rankTable;
}

/** The planned pair's mixture entropy as `pairJsd` sums it, action by action from 0. */
function plannedMixtureEntropy(x0: number, n0: number, x1: number, n1: number): number {
  let pm = 0;
  pm += entropyTerm((x0 / n0 + x1 / n1) / 2);
  pm += entropyTerm(((n0 - x0) / n0 + (n1 - x1) / n1) / 2);
  return pm;
}

/** `extremeKeys`' output, replicate r's at r (grown on demand, kept per thread). */
let lowestKeys = new Int32Array(0);
let highestKeys = new Int32Array(0);

/**
 * For each of B replicates of F ≤ 64 two-action framings, keys that name the framings with the lowest and
 * the highest share of action 0 into `lowestKeys` and `highestKeys`; false, and the keys unusable, when
 * some replicate's size is 0 or at least MEMO_SIDE (then the shares are compared by cross-multiplication).
 *
 * Each framing's share as its rank among the fractions (`fractionRanks`, over every size below MEMO_SIDE),
 * the framing index in the low bits: the smallest key rank·64 + f is the lowest share, the first framing
 * of equal shares; the largest key of rank·64 + (63 − f) the highest share, again its first framing.
 * Minimum and maximum by the sign of a difference, without a branch per framing (the shares' order is
 * random from one replicate to the next, and mispredicted branches were half this loop's time). Framing
 * by framing over all replicates, each a short loop over one array: a loop over the framings inside the
 * loop over replicates spent most of its time finding each framing's array. A size out of range is only
 * noted on the way (its index masked into the table): its keys are then discarded.
 */
function extremeKeys(counts: readonly Int32Array[], B: number): boolean {
  const ranks = fractionRanks(MEMO_SIDE - 1);
  if (lowestKeys.length < B) {
    lowestKeys = new Int32Array(B);
    highestKeys = new Int32Array(B);
  }
  const lowKeys = lowestKeys;
  const highKeys = highestKeys;
  // Negative once some size n is outside 1 … MEMO_SIDE − 1: the sign of (n − 1) | (MEMO_SIDE − 1 − n).
  let outside = 0;
  const c0 = counts[0] as Int32Array;
  for (let r = 0; r < B; r++) {
    const x = c0[2 * r] as number;
    const n = x + (c0[2 * r + 1] as number);
    outside |= (n - 1) | (MEMO_SIDE - 1 - n);
    const key = (ranks[((n & 255) << 8) | (x & 255)] as number) << 6;
    lowKeys[r] = key;
    highKeys[r] = key | 63;
  }
  for (let f = 1; f < counts.length; f++) {
    const cf = counts[f] as Int32Array;
    for (let r = 0; r < B; r++) {
      const x = cf[2 * r] as number;
      const n = x + (cf[2 * r + 1] as number);
      outside |= (n - 1) | (MEMO_SIDE - 1 - n);
      const key = (ranks[((n & 255) << 8) | (x & 255)] as number) << 6;
      const below = (key | f) - (lowKeys[r] as number);
      lowKeys[r] = (lowKeys[r] as number) + (below & (below >> 31));
      const above = (highKeys[r] as number) - (key | (63 - f));
      highKeys[r] = (highKeys[r] as number) - (above & (above >> 31));
    }
  }
  return outside >= 0;
}

/**
 * Two actions, F ≥ 2 framings of one (player, game), in one pass over the replicates: the largest JSD over
 * every pair of framings into `maxJsd` (the pair with the lowest and highest share of action 0, as
 * `binaryMaxJsd`) and, when `plannedJsd` is given, the JSD of framings 0 and 1 (as `pairJsd`), with each
 * replicate's sizes of framings 0 and 1 into `sizes0`/`sizes1`. The same numbers as `cellEntropies` +
 * `binaryMaxJsd` + `pairJsd`, bit for bit (the same expressions in the same order), but only the (at most
 * four) entropies a replicate needs are computed, not F, and no per-framing rows are written.
 *
 * Why the extremes: for Bernoulli shares p < q, with m = (p + q)/2,
 * d/dq JSD(p, q) = ½[ln((1 − m)/m) − ln((1 − q)/q)] > 0, because m < q and ln((1 − t)/t) decreases in t;
 * by symmetry JSD grows as q moves away from p on either side, so the largest pair is (min p, max p).
 */
export function binaryUnitJsd(
  counts: readonly Int32Array[],
  tables: readonly EntropyTable[],
  mixture: EntropyTable | null,
  plannedMixture: EntropyTable | null,
  B: number,
  maxJsd: Float64Array,
  plannedJsd: Float64Array | null,
  sizes0: Int32Array,
  sizes1: Int32Array,
): void {
  const F = counts.length;
  // Shares compared by rank where every size is a small positive count (else by cross-multiplication):
  // the extremes' keys of every replicate first, framing by framing, checking the sizes on the way.
  const ranked = F <= 64 && extremeKeys(counts, B);
  if (ranked) countLogs(MEMO_SIDE - 1);
  else {
    let largest = 0;
    for (let f = 0; f < F; f++) {
      const c = counts[f] as Int32Array;
      for (let r = 0; r < B; r++) {
        const n = (c[2 * r] as number) + (c[2 * r + 1] as number);
        if (n > largest) largest = n;
      }
    }
    countLogs(largest);
  }
  const lowKeys = lowestKeys;
  const highKeys = highestKeys;
  const half = mixture === null ? -1 : mixture.m / 2;
  const plannedHalf = plannedMixture === null ? -1 : plannedMixture.m / 2;
  const c0 = counts[0] as Int32Array;
  const c1 = counts[1] as Int32Array;
  for (let r = 0; r < B; r++) {
    const x0 = c0[2 * r] as number;
    const n0 = x0 + (c0[2 * r + 1] as number);
    let lo = 0;
    let hi = 0;
    let xLo = x0;
    let nLo = n0;
    let xHi = x0;
    let nHi = n0;
    if (ranked) {
      lo = (lowKeys[r] as number) & 63;
      hi = 63 - ((highKeys[r] as number) & 63);
      const cLo = counts[lo] as Int32Array;
      const cHi = counts[hi] as Int32Array;
      xLo = cLo[2 * r] as number;
      nLo = xLo + (cLo[2 * r + 1] as number);
      xHi = cHi[2 * r] as number;
      nHi = xHi + (cHi[2 * r + 1] as number);
    } else {
      for (let f = 1; f < F; f++) {
        const cf = counts[f] as Int32Array;
        const x = cf[2 * r] as number;
        const n = x + (cf[2 * r + 1] as number);
        if (x * nLo < xLo * n) {
          lo = f;
          xLo = x;
          nLo = n;
        } else if (x * nHi > xHi * n) {
          hi = f;
          xHi = x;
          nHi = n;
        }
      }
    }
    let hm: number;
    if (mixture !== null && nLo === half && nHi === half) hm = mixture.binary[xLo + xHi] as number;
    else if ((nLo | nHi) < MEMO_SIDE) {
      const key = (((xLo << 8) | nLo) << 16) | (xHi << 8) | nHi;
      const slot = Math.imul(key, MEMO_HASH) >>> MEMO_SHIFT;
      if (mixtureKeys[slot] === key) hm = mixtureValues[slot] as number;
      else {
        hm = bernoulliEntropy((xLo / nLo + xHi / nHi) / 2);
        mixtureKeys[slot] = key;
        mixtureValues[slot] = hm;
      }
    } else hm = bernoulliEntropy((xLo / nLo + xHi / nHi) / 2);
    const h =
      binaryEntropy(xLo, nLo, tables[lo] as EntropyTable) +
      binaryEntropy(xHi, nHi, tables[hi] as EntropyTable);
    maxJsd[r] = clampJsd(hm - h / 2);

    const x1 = c1[2 * r] as number;
    const n1 = x1 + (c1[2 * r + 1] as number);
    sizes0[r] = n0;
    sizes1[r] = n1;
    if (plannedJsd === null) continue;
    let pm: number;
    if (plannedMixture !== null && n0 === plannedHalf && n1 === plannedHalf) {
      pm = plannedMixture.binary[x0 + x1] as number;
    } else if ((n0 | n1) < MEMO_SIDE) {
      const key = (((x0 << 8) | n0) << 16) | (x1 << 8) | n1;
      const slot = Math.imul(key, MEMO_HASH) >>> MEMO_SHIFT;
      if (plannedKeys[slot] === key) pm = plannedValues[slot] as number;
      else {
        pm = plannedMixtureEntropy(x0, n0, x1, n1);
        plannedKeys[slot] = key;
        plannedValues[slot] = pm;
      }
    } else pm = plannedMixtureEntropy(x0, n0, x1, n1);
    const e0 = binaryEntropy(x0, n0, tables[0] as EntropyTable);
    const e1 = binaryEntropy(x1, n1, tables[1] as EntropyTable);
    plannedJsd[r] = clampJsd(pm - (e0 + e1) / 2);
  }
}
