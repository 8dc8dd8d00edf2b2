// The tail probabilities the test-inversion interval of R is built from (robustness-inversion.ts):
// P(R* ≥ R̂) and P(R* ≤ R̂) in mid-p form, exactly, for independent binomial framings at given rates.
//
// R* of a two-action record depends on its extreme framings only (the JSD of Bernoulli rates grows as
// they move apart), and for a lowest rate v the records with R* > R̂ are those whose every rate lies in
// [v, U(v)], U(v) the largest rate still closer to v than R̂'s pair. So, summing over the lattice values v
// the lowest rate can take (every x/m of every framing), with F_f the framing's binomial CDF:
//
//   P(R* > R̂) = Σ_v [ Π_f P(rate_f ∈ [v, U(v)]) − Π_f P(rate_f ∈ (v, U(v)]) ]
//
// (all rates in the window, minus those whose lowest rate is above v), and the same with the ties'
// window for P(R* ≥ R̂). The counts bounding each window depend on the sizes and R̂ only, so they are
// found once; an evaluation at new rates is one CDF per framing and F products per value v that the
// lowest rate takes with more than a negligible probability (V ≤ Σ m_f + F values in all).
// Exact where simulated records (the first version) carried a Monte Carlo error, and deterministic.
import { bernoulliEntropy, bernoulliJsdWith } from "../../domain/divergence.js";

/** How far R* may sit from R̂ and still count as a tie (the sums are the same in another order). */
const TIE = 1e-12;
/** Probability below which a framing's tail is left out of the sum (F of them: far below rounding of α/2). */
const NEGLIGIBLE = 1e-17;

export interface Tails {
  /** Mid-p P(R* ≥ R̂): P(R* > R̂) + ½ P(R* = R̂). */
  readonly above: number;
  /** Mid-p P(R* ≤ R̂). */
  readonly below: number;
}

export class ExtremePairTails {
  private readonly F: number;
  /** How many values the lowest rate can take (every x/m, equal fractions once). */
  private readonly V: number;
  /**
   * Per value v and framing f (entry v·F + f): the smallest count with rate ≥ v, the smallest with
   * rate > v, the largest whose pair with v is closer than R̂'s by more than a tie (`strict`) and the
   * largest at most a tie further (`close`); a window whose top is below its bottom is empty.
   */
  private readonly atLeast: Int32Array;
  private readonly above: Int32Array;
  private readonly strict: Int32Array;
  private readonly close: Int32Array;
  private readonly cdfs: Float64Array[];
  /** Per framing of size m, (m − j)/(j + 1) at j = 0..m: the binomial pmf's ratio P(j + 1)/P(j) without the odds. */
  private readonly ratios: Float64Array[];
  /** The lattice values as numbers, ascending. */
  private readonly values: Float64Array;

  /** The lattice values as fractions: value i is fractions[2i] / fractions[2i + 1]. */
  private readonly fractions: Int32Array;
  private readonly hValue: Float64Array;
  private readonly hRates: Float64Array[];
  /** The values whose windows are filled in so far: [filledFrom, filledTo), none at first. */
  private filledFrom = 0;
  private filledTo = 0;
  /** Per framing, where the scans of `strict` and `close` stopped at filledTo (where the next value resumes). */
  private readonly strictTops: Int32Array;
  private readonly closeTops: Int32Array;

  /** `sizes`: the decisions each framing is drawn with; `observedJsd`: R̂'s largest JSD in nats. */
  constructor(
    private readonly sizes: readonly number[],
    private readonly observedJsd: number,
  ) {
    this.F = sizes.length;
    const values = latticeValues(sizes);
    this.fractions = values;
    this.V = values.length / 2;
    this.values = Float64Array.from(
      { length: this.V },
      (_, i) => (values[2 * i] as number) / (values[2 * i + 1] as number),
    );
    const cells = this.V * this.F;
    this.atLeast = new Int32Array(cells);
    this.above = new Int32Array(cells);
    this.strict = new Int32Array(cells);
    this.close = new Int32Array(cells);
    // The entropies of the values and of each framing's rates, once (a JSD then costs one entropy).
    this.hValue = this.values.map(bernoulliEntropy);
    this.hRates = sizes.map((m) => Float64Array.from({ length: m + 1 }, (_, j) => bernoulliEntropy(j / m)));
    this.strictTops = new Int32Array(this.F);
    this.closeTops = new Int32Array(this.F);
    this.cdfs = sizes.map((m) => new Float64Array(m + 1));
    this.ratios = sizes.map((m) => Float64Array.from({ length: m + 1 }, (_, j) => (m - j) / (j + 1)));
  }

  /**
   * The windows of values [from, to), filled in only when an evaluation first reaches them: the lowest
   * rate stays within a few standard errors of the framings' rates, a small part of the V values when the
   * framings are large, and most evaluations reach the same values.
   */
  private fill(from: number, to: number): void {
    if (this.filledFrom >= this.filledTo) {
      this.scan(from, to, new Int32Array(this.F), new Int32Array(this.F));
      this.filledFrom = from;
      this.filledTo = to;
      return;
    }
    if (from < this.filledFrom) {
      // Below what is filled: a scan of its own from `from` (its tops start at the bottom, as at value 0).
      this.scan(from, this.filledFrom, new Int32Array(this.F), new Int32Array(this.F));
      this.filledFrom = from;
    }
    if (to > this.filledTo) {
      this.scan(this.filledTo, to, this.strictTops, this.closeTops);
      this.filledTo = to;
    }
  }

  /**
   * The windows of values [from, to) of every framing. Both tops only grow with v (U is increasing), so
   * each scan resumes where the last one stopped: O(values + m) divergences per framing. `strictTops` and
   * `closeTops` hold where the scans start and, after, where they stopped (at `to`) when `to` extends
   * what is filled.
   */
  private scan(from: number, to: number, strictTops: Int32Array, closeTops: Int32Array): void {
    const { F, fractions: values, hValue, observedJsd } = this;
    const tolerance = TIE * Math.LN2;
    const extendsTop = to > this.filledTo;
    this.sizes.forEach((m, f) => {
      const hRate = this.hRates[f] as Float64Array;
      const jsd = (i: number, v: number, j: number): number =>
        bernoulliJsdWith(v, j / m, hValue[i] as number, hRate[j] as number);
      let strictTop = strictTops[f] as number;
      let closeTop = closeTops[f] as number;
      for (let i = from; i < to; i++) {
        const a = values[2 * i] as number;
        const b = values[2 * i + 1] as number;
        const v = a / b;
        // Counts x with x / m ≥ a / b, and > a / b, in integers: ⌊a·m / b⌋ is exact at these sizes.
        const floor = Math.floor((a * m) / b);
        const first = floor * b === a * m ? floor : floor + 1;
        const at = i * F + f;
        this.atLeast[at] = first;
        this.above[at] = floor + 1;
        let j = Math.max(strictTop, first);
        while (j <= m && jsd(i, v, j) < observedJsd - tolerance) j++;
        this.strict[at] = j - 1;
        strictTop = j;
        j = Math.max(j, closeTop);
        while (j <= m && jsd(i, v, j) <= observedJsd + tolerance) j++;
        this.close[at] = j - 1;
        closeTop = j;
      }
      if (extendsTop) {
        this.strictTops[f] = strictTop;
        this.closeTops[f] = closeTop;
      }
    });
  }

  /** Mid-p P(R* ≥ R̂) and P(R* ≤ R̂) when framing f chooses the first action at rate `rates[f]`. */
  at(rates: readonly number[]): Tails {
    const { F, V, sizes, cdfs, ratios, atLeast, above, strict, close, values } = this;
    // The lowest rate lies, but for NEGLIGIBLE per framing, between the lowest framing's bottom
    // quantile and the smallest top quantile of any framing: only those values v are summed.
    let from = 1;
    let to = 1;
    rates.forEach((q, f) => {
      const m = sizes[f] as number;
      const cdf = cdfs[f] as Float64Array;
      binomialCdf(m, q, ratios[f] as Float64Array, cdf);
      let bottom = 0;
      while ((cdf[bottom] as number) < NEGLIGIBLE) bottom++;
      let top = bottom;
      while ((cdf[top] as number) < 1 - NEGLIGIBLE) top++;
      from = Math.min(from, bottom / m);
      to = Math.min(to, top / m);
    });
    let first = 0;
    while ((values[first] as number) < from - 1e-12) first++;
    let last = first;
    while (last < V && (values[last] as number) <= to + 1e-12) last++;
    if (last > first) this.fill(first, last);
    // P(counts in [lo, hi]) from the CDF; empty when hi < lo.
    const window = (cdf: Float64Array, lo: number, hi: number): number =>
      hi < lo ? 0 : (cdf[hi] as number) - (lo > 0 ? (cdf[lo - 1] as number) : 0);
    let closer = 0;
    let tied = 0;
    for (let i = first; i < last; i++) {
      let strictFrom = 1;
      let strictAbove = 1;
      let closeFrom = 1;
      let closeAbove = 1;
      for (let f = 0; f < F; f++) {
        const at = i * F + f;
        const cdf = cdfs[f] as Float64Array;
        const s = strict[at] as number;
        const c = close[at] as number;
        strictFrom *= window(cdf, atLeast[at] as number, s);
        strictAbove *= window(cdf, above[at] as number, s);
        closeFrom *= window(cdf, atLeast[at] as number, c);
        closeAbove *= window(cdf, above[at] as number, c);
      }
      closer += strictFrom - strictAbove;
      tied += closeFrom - closeAbove;
    }
    // `tied` so far is P(R* ≥ R̂) with ties; the ties alone are its excess over the strict part.
    const ties = Math.max(0, tied - closer);
    const strictly = Math.min(1, Math.max(0, closer));
    return { above: strictly + ties / 2, below: Math.max(0, 1 - strictly - ties) + ties / 2 };
  }
}

/**
 * Every rate x / m of every framing, once each (equal fractions of different sizes merged, the first size
 * in the order given kept), ascending: a merge of each size's ascending rates, written straight into the
 * output (a pair object per rate, sorted, was a megabyte of old garbage per inversion at a million
 * decisions).
 */
function latticeValues(sizes: readonly number[]): Int32Array {
  const ms = [...new Set(sizes)];
  let total = 0;
  for (const m of ms) total += m + 1;
  const out = new Int32Array(2 * total);
  // Per size, the next count x to merge; the smallest x / m next (exact comparison of fractions by
  // cross-multiplication, counts far below 2^26), the first size on ties.
  const next = new Int32Array(ms.length);
  let length = 0;
  for (;;) {
    let best = -1;
    for (let i = 0; i < ms.length; i++) {
      const m = ms[i] as number;
      const x = next[i] as number;
      if (x > m) continue;
      if (best < 0 || x * (ms[best] as number) < (next[best] as number) * m) best = i;
    }
    if (best < 0) break;
    const x = next[best] as number;
    const m = ms[best] as number;
    next[best] = x + 1;
    if (length > 0 && x * (out[length - 1] as number) === (out[length - 2] as number) * m) continue;
    out[length++] = x;
    out[length++] = m;
  }
  return out.slice(0, length);
}

/** Binomial(n, q) CDF at 0..n; `ratios[j]` = (n − j)/(j + 1). */
function binomialCdf(n: number, q: number, ratios: Float64Array, out: Float64Array): void {
  if (q <= 0 || q >= 1) {
    // A certain outcome (the logs below would give −∞ + ∞): every draw is 0, or every draw is n.
    out.fill(q <= 0 ? 1 : 0);
    out[n] = 1;
    return;
  }
  const start = n * Math.log1p(-q);
  const odds = q / (1 - q);
  let sum = 0;
  if (start > -700) {
    // P(0) = (1 − q)^n is representable: the pmf by its ratio P(j + 1)/P(j) = (n − j)/(j + 1)·q/(1 − q).
    let pmf = Math.exp(start);
    for (let j = 0; j <= n; j++) {
      sum += pmf;
      out[j] = sum;
      pmf *= (ratios[j] as number) * odds;
    }
  } else {
    let logPmf = start;
    const ratio = Math.log(odds);
    for (let j = 0; j <= n; j++) {
      sum += Math.exp(logPmf);
      out[j] = sum;
      logPmf += Math.log((n - j) / (j + 1)) + ratio;
    }
  }
  out[n] = 1;
}
