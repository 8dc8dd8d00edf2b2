// The tail probabilities the test-inversion interval of R is built from (robustness-inversion.ts):
// P(R* ≥ R̂) and P(R* ≤ R̂) in mid-p form, over simulated two-action records drawn at given rates from
// one fixed block of uniforms (common random numbers). The interval asks for them a dozen or more times per
// game end, so the work per simulated record is kept to one inverse-CDF lookup per framing and one table
// lookup: R* compares with R̂ through the extreme framings only (JSD of Bernoulli rates grows as they move
// apart), and for a lower count i the higher counts j whose pair is closer than R̂'s form a prefix — so
// "R* vs R̂" is a threshold per i, computed once from R̂.
import { bernoulliJsd } from "./divergence.js";

/** How far R* may sit from R̂ and still count as a tie (the sums are the same in another order). */
const TIE = 1e-12;

/**
 * For the extreme pair of sizes (ma, mb): per lower count i, the largest upper count j whose JSD is
 * below the observed one by more than a tie (`strict`), and the largest whose JSD is at most a tie above
 * it (`close`). j runs from the smallest count at or above the rate i/ma.
 */
interface Thresholds {
  readonly strict: Int32Array;
  readonly close: Int32Array;
}

function thresholds(ma: number, mb: number, observed: number): Thresholds {
  const strict = new Int32Array(ma + 1);
  const close = new Int32Array(ma + 1);
  const tolerance = TIE * Math.LN2;
  // Both thresholds only grow with i (a higher lower rate is closer to every j above it), so each scan
  // resumes where the previous one stopped: O(ma + mb) divergences per table.
  let strictFrom = 0;
  let closeFrom = 0;
  for (let i = 0; i <= ma; i++) {
    const p = i / ma;
    const start = Math.ceil(p * mb - 1e-9);
    let j = Math.max(start, strictFrom);
    while (j <= mb && bernoulliJsd(p, j / mb) < observed - tolerance) j++;
    strict[i] = j - 1;
    strictFrom = j;
    j = Math.max(j, closeFrom);
    while (j <= mb && bernoulliJsd(p, j / mb) <= observed + tolerance) j++;
    close[i] = j - 1;
    closeFrom = j;
  }
  return { strict, close };
}

export class SimulatedTails {
  private readonly F: number;
  private readonly cdfs: Float64Array[];
  /** Per framing, guide[k] = the smallest count whose CDF reaches k / (m + 1): where the lookup starts. */
  private readonly guides: Int32Array[];
  private readonly tables = new Map<number, Thresholds>();

  /**
   * `sizes`: the decisions each framing is simulated with; `observedJsd`: R̂'s largest JSD in nats;
   * `uniforms`: `simulations × F` uniforms, record by record.
   */
  constructor(
    private readonly sizes: readonly number[],
    private readonly observedJsd: number,
    private readonly uniforms: Float64Array,
    private readonly simulations: number,
  ) {
    this.F = sizes.length;
    this.cdfs = sizes.map((m) => new Float64Array(m + 1));
    this.guides = sizes.map((m) => new Int32Array(m + 1));
  }

  private table(ma: number, mb: number): Thresholds {
    const key = ma * 1_000_003 + mb;
    let table = this.tables.get(key);
    if (table === undefined) {
      table = thresholds(ma, mb, this.observedJsd);
      this.tables.set(key, table);
    }
    return table;
  }

  /**
   * Mid-p P(R* ≥ R̂) and P(R* ≤ R̂) when framing f chooses the first action at rate `rates[f]`, over the
   * first `records` simulated records (all by default).
   */
  at(rates: readonly number[], records = this.simulations): { above: number; below: number } {
    const { F, sizes, cdfs, guides, uniforms } = this;
    rates.forEach((q, f) => {
      binomialCdf(sizes[f] as number, q, cdfs[f] as Float64Array);
      fillGuide(cdfs[f] as Float64Array, guides[f] as Int32Array);
    });
    let above = 0;
    let below = 0;
    for (let s = 0; s < records; s++) {
      // The framings with the lowest and highest simulated rate, compared exactly as x·m′ vs x′·m.
      let lowX = -1;
      let lowM = 1;
      let highX = -1;
      let highM = 1;
      for (let f = 0; f < F; f++) {
        const m = sizes[f] as number;
        const u = uniforms[s * F + f] as number;
        const cdf = cdfs[f] as Float64Array;
        let x = (guides[f] as Int32Array)[Math.floor(u * (m + 1))] as number;
        while ((cdf[x] as number) < u) x++;
        if (lowX < 0 || x * lowM < lowX * m) {
          lowX = x;
          lowM = m;
        }
        if (highX < 0 || x * highM > highX * m) {
          highX = x;
          highM = m;
        }
      }
      const { strict, close } = this.table(lowM, highM);
      if (highX <= (strict[lowX] as number)) above += 1;
      else if (highX <= (close[lowX] as number)) {
        above += 0.5;
        below += 0.5;
      } else below += 1;
    }
    return { above: above / records, below: below / records };
  }
}

/** Binomial(n, q) CDF at 0..n. */
function binomialCdf(n: number, q: number, out: Float64Array): void {
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
      pmf *= ((n - j) / (j + 1)) * odds;
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

/**
 * guide[k] = the smallest j with cdf[j] ≥ k / (m + 1) (Chen & Asau 1974), so the inverse-CDF draw of u,
 * the smallest j with cdf[j] ≥ u, starts at guide[⌊u(m + 1)⌋] and is found in O(1) steps on average.
 * The draw is monotone in the rate for a fixed u, which the common random numbers rely on.
 */
function fillGuide(cdf: Float64Array, guide: Int32Array): void {
  const slots = guide.length;
  let j = 0;
  for (let k = 0; k < slots; k++) {
    while ((cdf[j] as number) < k / slots) j++;
    guide[k] = j;
  }
}
