// The null distribution of the invariance test for sessions whose lengths differ (SPEC §4 "inference for
// invariance"). Reassigning whole sessions to framings at random is exact only when sessions are
// exchangeable, i.e. when they all make the same number of decisions. When the framings' session designs
// differ (say 300 sessions of one decision in one framing, 10 of 30 in another), a permuted framing gets a
// mix of long and short sessions it never had, so its rate varies more or less than under the null: the
// test then rejects too often in one design and never in another. No permutation can respect both
// designs when no session length is shared, so here the null keeps each framing's own sessions, lengths
// and all, and redraws their decisions from the null model: every session a Dirichlet-multinomial
// draw at the framings' pooled distribution with the intra-session correlation ρ̂ estimated from the
// record (a parametric bootstrap of the null, Efron & Tibshirani 1993 §16.4). It is the beta-binomial
// model the coverage grid simulates, and with ρ̂ = 0 each framing is a multinomial at the pooled rates.
import type { PlannedCell } from "../robustness/robustness-plan.js";
import type { UniformSource } from "../sampling/fast-rng.js";
import { type GuideTable, guideTable } from "../sampling/guide-table.js";

/** The sessions of a framing: their lengths, each listed `weight` times. */
interface FramingSessions {
  readonly lengths: readonly number[];
}

/** Per framing, the lengths of its sessions (a cell without sessions: its decisions, one each). */
export function sessionLengths(cells: readonly PlannedCell[]): FramingSessions[] {
  return cells.map((pc) => {
    if (pc.unit !== "session" || pc.cell.clusters === undefined) {
      return { lengths: Array.from({ length: pc.n }, () => 1) };
    }
    const lengths: number[] = [];
    pc.cell.clusters.forEach((cluster, i) => {
      const m = pc.actions.reduce((s, a) => s + (cluster[a] ?? 0), 0);
      if (m === 0) return;
      const weight = pc.cell.cluster_weights?.[i] ?? 1;
      for (let w = 0; w < weight; w++) lengths.push(m);
    });
    return { lengths };
  });
}

/** Whether every session of the (player, game) makes the same number of decisions (then permutation is exact). */
export function sessionsExchangeable(cells: readonly PlannedCell[]): boolean {
  const lengths = new Set(sessionLengths(cells).flatMap((f) => f.lengths));
  return lengths.size <= 1;
}

/**
 * The intra-session correlation of the cells' sessions: the one-way ANOVA estimator on each action's
 * indicator, each framing about its own rates (so a framing effect does not inflate it), the
 * between- and within-session sums added over actions; clipped to [0, 1), and 0 where it cannot be
 * estimated (fewer sessions than two in every framing, or no session of two decisions).
 */
export function intraSessionCorrelation(cells: readonly PlannedCell[]): number {
  let between = 0;
  let within = 0;
  let sessions = 0;
  let decisions = 0;
  let squaredSizes = 0;
  let groups = 0;
  for (const pc of cells) {
    if (pc.unit !== "session" || pc.cell.clusters === undefined) continue;
    let count = 0;
    let squares = 0;
    pc.cell.clusters.forEach((cluster, i) => {
      const m = pc.actions.reduce((s, a) => s + (cluster[a] ?? 0), 0);
      if (m === 0) return;
      const weight = pc.cell.cluster_weights?.[i] ?? 1;
      for (const a of pc.actions) {
        const x = cluster[a] ?? 0;
        const p = (pc.cell.counts[a] ?? 0) / pc.n;
        between += weight * m * (x / m - p) ** 2;
        within += (weight * x * (m - x)) / m;
      }
      count += weight;
      squares += weight * m * m;
    });
    if (count === 0) continue;
    sessions += count;
    decisions += pc.n;
    squaredSizes += squares / pc.n;
    groups++;
  }
  if (!(sessions > groups && decisions > sessions)) return 0;
  const msb = between / (sessions - groups);
  const msw = within / (decisions - sessions);
  const m0 = (decisions - squaredSizes) / (sessions - groups);
  const denominator = msb + (m0 - 1) * msw;
  if (!(denominator > 0)) return 0;
  return Math.min(0.999, Math.max(0, (msb - msw) / denominator));
}

/**
 * `replicates` null records of the cells (framing f's counts of replicate r at out[f][r·k ..]): every
 * session of every framing redrawn at the pooled distribution with correlation ρ̂, its length kept.
 */
export function drawSessionDesignNull(
  cells: readonly PlannedCell[],
  replicates: number,
  rng: UniformSource,
): Int32Array[] {
  const { actions } = cells[0] as PlannedCell;
  const k = actions.length;
  const total = cells.reduce((s, c) => s + c.n, 0);
  const pooled = actions.map((a) => cells.reduce((s, c) => s + (c.cell.counts[a] ?? 0), 0) / total);
  const rho = intraSessionCorrelation(cells);
  const designs = sessionLengths(cells);
  // Dirichlet concentration α₀ = (1 − ρ)/ρ: a session's propensities vary about the pooled rates.
  const concentration = rho > 0 ? (1 - rho) / rho : 0;
  const alpha = pooled.map((p) => p * concentration);
  const propensity = new Float64Array(k);
  const out = cells.map(() => new Int32Array(replicates * k));
  if (k === 2) {
    drawTwoActionSessions(designs, pooled[0] as number, concentration, replicates, rng, out);
    return out;
  }
  for (let r = 0; r < replicates; r++) {
    designs.forEach((design, f) => {
      const target = out[f] as Int32Array;
      for (const m of design.lengths) {
        if (rho > 0 && m > 1) {
          let sum = 0;
          for (let a = 0; a < k; a++) {
            const g = (alpha[a] as number) > 0 ? gamma(alpha[a] as number, rng) : 0;
            propensity[a] = g;
            sum += g;
          }
          for (let a = 0; a < k; a++) propensity[a] = sum > 0 ? (propensity[a] as number) / sum : 0;
        } else propensity.set(pooled);
        for (let d = 0; d < m; d++) {
          let u = rng.next();
          let a = 0;
          while (a < k - 1 && u >= (propensity[a] as number)) {
            u -= propensity[a] as number;
            a++;
          }
          target[r * k + a] = (target[r * k + a] as number) + 1;
        }
      }
    });
  }
  return out;
}

/**
 * Two actions: a session of m decisions chooses the first action x ~ BetaBinomial(m, p·α₀, (1 − p)·α₀)
 * times (Binomial(m, p) when ρ̂ = 0), drawn by one uniform through a guide table built once per length.
 */
function drawTwoActionSessions(
  designs: readonly FramingSessions[],
  p: number,
  concentration: number,
  replicates: number,
  rng: UniformSource,
  out: Int32Array[],
): void {
  const tables = new Map<number, GuideTable>();
  const tableFor = (m: number): GuideTable => {
    let table = tables.get(m);
    if (table === undefined) {
      table = guideTable(0, sessionMasses(m, p, concentration));
      tables.set(m, table);
    }
    return table;
  };
  designs.forEach((design, f) => {
    const target = out[f] as Int32Array;
    const lengths = design.lengths.map((m) => ({ m, table: tableFor(m) }));
    for (let r = 0; r < replicates; r++) {
      let x = 0;
      let n = 0;
      for (const { m, table } of lengths) {
        const u = rng.next();
        const { cdf, guide } = table;
        let i = guide[(u * guide.length) | 0] as number;
        while ((cdf[i] as number) <= u) i++;
        x += i;
        n += m;
      }
      target[2 * r] = x;
      target[2 * r + 1] = n - x;
    }
  });
}

/** Relative masses of x = 0..m: beta-binomial with mean p and concentration α₀ (binomial when α₀ = 0). */
function sessionMasses(m: number, p: number, concentration: number): Float64Array {
  const mass = new Float64Array(m + 1);
  if (p <= 0 || p >= 1) {
    mass[p <= 0 ? 0 : m] = 1;
    return mass;
  }
  // P(x + 1)/P(x) = (m − x)/(x + 1) · (x + a)/(m − x − 1 + b) for the beta-binomial, · p/(1 − p) for the binomial.
  const a = p * concentration;
  const b = (1 - p) * concentration;
  const logs = new Float64Array(m + 1);
  for (let x = 0; x < m; x++) {
    const ratio =
      concentration > 0
        ? (((m - x) / (x + 1)) * (x + a)) / (m - x - 1 + b)
        : ((m - x) / (x + 1)) * (p / (1 - p));
    logs[x + 1] = (logs[x] as number) + Math.log(ratio);
  }
  const top = Math.max(...logs);
  for (let x = 0; x <= m; x++) mass[x] = Math.exp((logs[x] as number) - top);
  return mass;
}

/** Gamma(shape, 1): Marsaglia & Tsang (2000), with u^(1/shape) for shapes below 1. */
function gamma(shape: number, rng: UniformSource): number {
  if (shape < 1) return gamma(shape + 1, rng) * (1 - rng.next()) ** (1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      x = Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = 1 - rng.next();
    if (u < 1 - 0.0331 * x ** 4 || Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
  }
}
