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
//
// ρ̂ itself is poorly known where a framing has few sessions (10 of 30 decisions): a record whose ρ̂ came
// out low gets a null too narrow, and the test rejected 6.5% of records with no effect. So the statistic
// is studentized (a parametric bootstrap-t, Efron & Tibshirani 1993 §12.5): every null record's ρ̂* is
// estimated like the record's, and its statistic T* is compared on the scale of its own design,
// T*·v(ρ̂)/v(ρ̂*) ≥ T, with v(ρ) = Σ_f deff_f(ρ)/n_f the variance scale of a framing contrast
// (deff_f = 1 + (m̃_f − 1)ρ, Kish). A null record drawn with a low ρ̂* then counts as one from a low ρ̂.
import type { PlannedCell } from "../robustness/robustness-plan.js";
import type { UniformSource } from "../sampling/fast-rng.js";
import { gamma } from "../sampling/gamma-sampler.js";
import { type GuideTable, guideIndex, guideTable } from "../sampling/guide-table.js";
import type { ClusterSumMethod } from "../sampling/normal-cluster-sums.js";
import { drawNormalSessionDesign, drawsNormalDesign } from "./session-design-normal-null.js";
import { betaQuantiles, QUANTILES, type SharedPropensities } from "./shared-session-propensities.js";

/** The sessions of a framing: their lengths, each listed `weight` times. */
interface FramingSessions {
  readonly lengths: readonly number[];
}

// The design's functions below loop without closures: a callback written inline is a new closure per
// unit, which V8 compiled again for every unit of every analysis.

/** A listed session's decisions among the game's actions. */
function sessionLength(cluster: Readonly<Record<string, number>>, actions: readonly string[]): number {
  let m = 0;
  for (let a = 0; a < actions.length; a++) m += cluster[actions[a] as string] ?? 0;
  return m;
}

/** Per framing, the lengths of its sessions (a cell without sessions: its decisions, one each). */
export function sessionLengths(cells: readonly PlannedCell[]): FramingSessions[] {
  const designs: FramingSessions[] = [];
  for (const pc of cells) {
    const lengths: number[] = [];
    const { clusters, cluster_weights: weights } = pc.cell;
    if (pc.unit !== "session" || clusters === undefined) {
      for (let d = 0; d < pc.n; d++) lengths.push(1);
    } else {
      for (let i = 0; i < clusters.length; i++) {
        const m = sessionLength(clusters[i] as Readonly<Record<string, number>>, pc.actions);
        if (m === 0) continue;
        const weight = weights?.[i] ?? 1;
        for (let w = 0; w < weight; w++) lengths.push(m);
      }
    }
    designs.push({ lengths });
  }
  return designs;
}

/** Whether every session of the (player, game) makes the same number of decisions (then permutation is exact). */
export function sessionsExchangeable(cells: readonly PlannedCell[]): boolean {
  let seen = 0;
  for (const { lengths } of sessionLengths(cells)) {
    for (const m of lengths) {
      if (seen === 0) seen = m;
      else if (m !== seen) return false;
    }
  }
  return true;
}

/**
 * The intra-session correlation under the null this test draws from: the one-way ANOVA estimator on each
 * action's indicator, every session of the game about the framings' pooled rates (a framing's decisions
 * without sessions as sessions of one, as the null draws them), the between- and within-session sums
 * added over actions; clipped to [0, 0.999], and 0 where it cannot be estimated (fewer than two sessions,
 * or no session of two decisions).
 *
 * Estimated under the null, as a parametric bootstrap test's nuisance parameters should be (Davidson &
 * MacKinnon 1999, "The size distortion of bootstrap tests"). Each framing about its own rates (as before)
 * was blind exactly where the test is decided: where every session of a framing agrees, that framing's
 * rate absorbs all its sessions' spread, the within-framing sums are 0/0, and ρ̂ came out 0 — so two
 * framings of unanimous sessions (5 + 5 sessions all C against 4 + 6 all D) were tested as 20 independent
 * decisions (p < 0.001), though under a null of one coin per session that split has probability 1/8. The
 * price is power: a framing effect adds to the between-session sums about the pooled rates, so ρ̂, and
 * the null's spread, grow with it.
 */
export function intraSessionCorrelation(cells: readonly PlannedCell[]): number {
  const design = anovaDesign(cells);
  const k = (cells[0] as PlannedCell).actions.length;
  const totals = new Float64Array(k);
  let squares = 0;
  for (let f = 0; f < cells.length; f++) {
    const pc = cells[f] as PlannedCell;
    for (let j = 0; j < pc.actions.length; j++) {
      totals[j] = (totals[j] as number) + (pc.cell.counts[pc.actions[j] as string] ?? 0);
    }
    squares += framingSquares(pc, design.sessioned[f] as boolean);
  }
  return anovaCorrelation(design, ...anovaSums(design.decisions, totals, squares));
}

/** Σ_s Σ_a x_sa²/m_s over the framing's sessions (a decision without a session adds 1). */
function framingSquares(pc: PlannedCell, sessioned: boolean): number {
  if (!sessioned) return pc.n;
  let q = 0;
  const { clusters = [], cluster_weights: weights } = pc.cell;
  for (let i = 0; i < clusters.length; i++) {
    const cluster = clusters[i] as Readonly<Record<string, number>>;
    const m = sessionLength(cluster, pc.actions);
    if (m === 0) continue;
    const weight = weights?.[i] ?? 1;
    for (const a of pc.actions) q += (weight * (cluster[a] ?? 0) ** 2) / m;
  }
  return q;
}

/**
 * The between- and within-session sums of squares about the pooled rates from the game's totals: with
 * Q = Σ_s Σ_a x²/m, between = Q − Σ_a X_a²/N and within = N − Q.
 */
function anovaSums(decisions: number, totals: ArrayLike<number>, squares: number): [number, number] {
  let pooledSquares = 0;
  for (let a = 0; a < totals.length; a++) pooledSquares += (totals[a] as number) ** 2;
  return [squares - pooledSquares / decisions, decisions - squares];
}

/** What the ANOVA estimator needs of the design alone (the same for the record and its null records). */
interface AnovaDesign {
  /** Whether framing f's decisions are listed by session (else each decision is a session of one). */
  readonly sessioned: readonly boolean[];
  readonly sessions: number;
  readonly decisions: number;
  /** Σ_s m_s² / N over every session of the game. */
  readonly squaredSizes: number;
  /** Per framing, m̃_f = Σm²/Σm (1 for a framing without sessions). */
  readonly lengths: readonly number[];
  readonly sizes: readonly number[];
}

function anovaDesign(cells: readonly PlannedCell[]): AnovaDesign {
  let sessions = 0;
  let decisions = 0;
  let squaredSizes = 0;
  const sessioned: boolean[] = [];
  const lengths: number[] = [];
  for (const pc of cells) {
    let count = 0;
    let squares = 0;
    const { clusters, cluster_weights: weights } = pc.cell;
    if (pc.unit === "session" && clusters !== undefined) {
      for (let i = 0; i < clusters.length; i++) {
        const m = sessionLength(clusters[i] as Readonly<Record<string, number>>, pc.actions);
        if (m === 0) continue;
        const weight = weights?.[i] ?? 1;
        count += weight;
        squares += weight * m * m;
      }
    }
    sessioned.push(count > 0);
    lengths.push(count > 0 ? squares / pc.n : 1);
    sessions += count > 0 ? count : pc.n;
    squaredSizes += count > 0 ? squares : pc.n;
    decisions += pc.n;
  }
  return {
    sessioned,
    sessions,
    decisions,
    squaredSizes: squaredSizes / decisions,
    lengths,
    sizes: cells.map((c) => c.n),
  };
}

/** The one-way ANOVA estimator from the between- and within-session sums, clipped to [0, 0.999]. */
function anovaCorrelation(design: AnovaDesign, between: number, within: number): number {
  const { sessions, decisions, squaredSizes } = design;
  if (!(sessions > 1 && decisions > sessions)) return 0;
  const msb = between / (sessions - 1);
  const msw = within / (decisions - sessions);
  const m0 = (decisions - squaredSizes) / (sessions - 1);
  const denominator = msb + (m0 - 1) * msw;
  if (!(denominator > 0)) return 0;
  return Math.min(0.999, Math.max(0, (msb - msw) / denominator));
}

/** v(ρ) = Σ_f (1 + (m̃_f − 1)ρ)/n_f: the variance scale of a framing contrast at correlation ρ. */
function contrastScale(design: AnovaDesign, rho: number): number {
  return design.lengths.reduce((v, m, f) => v + (1 + (m - 1) * rho) / (design.sizes[f] as number), 0);
}

/** The session-design null records and, per replicate, the factor v(ρ̂)/v(ρ̂*) its statistic is scaled by. */
export interface SessionDesignNull {
  readonly counts: Int32Array[];
  readonly scale: Float64Array;
}

/**
 * How many uniforms `drawSessionDesignNull(cells, replicates, rng, undefined, method)` reads per
 * replicate when that number is fixed by the design alone (two actions, each session one draw, not the
 * normal approximation), else null. A stream can then be passed over a unit's draws without making them,
 * and the unit drawn later (or on another thread) from where the stream stood.
 */
export function sessionDesignUniforms(
  cells: readonly PlannedCell[],
  method: ClusterSumMethod,
): number | null {
  if ((cells[0] as PlannedCell).actions.length !== 2) return null;
  const sessions = sessionLengths(cells).map((d) => d.lengths.length);
  if (drawsNormalDesign(method, sessions)) return null;
  return sessions.reduce((sum, s) => sum + s, 0);
}

/**
 * `replicates` null records of the cells (framing f's counts of replicate r at out[f][r·k ..]): every
 * session of every framing redrawn at the pooled distribution with correlation ρ̂, its length kept. A
 * (player, game) with many sessions in every framing (`drawsNormalDesign`) draws each framing's sums from
 * their normal approximation instead (session-design-normal-null.ts), unless some of its sessions share
 * their propensity draw with the player's other games.
 */
export function drawSessionDesignNull(
  cells: readonly PlannedCell[],
  replicates: number,
  rng: UniformSource,
  /** A player's sessions that decided in several of its games: one propensity draw for all of them. */
  shared?: SharedPropensities,
  method: ClusterSumMethod = "exact",
): SessionDesignNull {
  const { actions } = cells[0] as PlannedCell;
  const k = actions.length;
  const total = cells.reduce((s, c) => s + c.n, 0);
  const pooled = actions.map((a) => cells.reduce((s, c) => s + (c.cell.counts[a] ?? 0), 0) / total);
  const rho = intraSessionCorrelation(cells);
  const designs = sessionLengths(cells);
  // Dirichlet concentration α₀ = (1 − ρ)/ρ: a session's propensities vary about the pooled rates.
  const concentration = rho > 0 ? (1 - rho) / rho : 0;
  const alpha = pooled.map((p) => p * concentration);
  const out = cells.map(() => new Int32Array(replicates * k));
  // Per framing and replicate, Σ_s Σ_a x_sa² / m_s: with the counts, the ANOVA's sums of the null record.
  const squares = cells.map(() => new Float64Array(replicates));
  const p = pooled[0] as number;
  const sessions = designs.map((d) => d.lengths.length);
  if (k === 2 && shared !== undefined && shared.index.size > 0 && concentration > 0 && p > 0 && p < 1) {
    drawSharedTwoActionSessions(cells, p, concentration, replicates, rng, shared, out, squares);
  } else if (drawsNormalDesign(method, sessions)) {
    const lengths = designs.map((d) => d.lengths);
    drawNormalSessionDesign(lengths, pooled, rho, replicates, rng, out, squares);
  } else if (k === 2) {
    drawTwoActionSessions(designs, pooled[0] as number, concentration, replicates, rng, out, squares);
  } else drawSessions(designs, pooled, alpha, rho, replicates, rng, out, squares);
  return { counts: out, scale: nullScales(cells, rho, k, replicates, out, squares) };
}

/**
 * Each null replicate's contrast scale relative to the observed one (`drawSessionDesignNull`'s `scale`).
 * A function of its own, loop and all: as the tail of the draw V8 compiled the loop before the return
 * after it had run, and threw that code away at the return, unit after unit. The loop over replicates
 * runs in `replicateScales` over typed arrays only (no closure or array made per replicate), the same
 * sums in the same order as `anovaSums`, `anovaCorrelation` and `contrastScale`, so the same numbers.
 */
function nullScales(
  cells: readonly PlannedCell[],
  rho: number,
  k: number,
  replicates: number,
  out: readonly Int32Array[],
  squares: readonly Float64Array[],
): Float64Array {
  const design = anovaDesign(cells);
  const scale = new Float64Array(replicates);
  replicateScales(
    contrastScale(design, rho),
    Float64Array.from(design.lengths),
    Float64Array.from(design.sizes),
    design.sessions,
    design.decisions,
    design.squaredSizes,
    k,
    out,
    squares,
    scale,
  );
  return scale;
}

/** `nullScales`' loop: scale[r] = observed / v(ρ̂*) of replicate r, ρ̂* from its counts and sums of squares. */
function replicateScales(
  observed: number,
  lengths: Float64Array,
  sizes: Float64Array,
  sessions: number,
  decisions: number,
  squaredSizes: number,
  k: number,
  out: readonly Int32Array[],
  squares: readonly Float64Array[],
  scale: Float64Array,
): void {
  const replicates = scale.length;
  // Per replicate, the game's counts of each action and Σ of the framings' sums of squares, added framing
  // by framing (framing 0 first, as a loop over framings per replicate adds them: the same sums), each
  // framing's array read through in order.
  const totals = new Float64Array(replicates * k);
  const q = new Float64Array(replicates);
  for (let f = 0; f < out.length; f++) {
    const counts = out[f] as Int32Array;
    const square = squares[f] as Float64Array;
    for (let i = 0; i < replicates * k; i++) totals[i] = (totals[i] as number) + (counts[i] as number);
    for (let r = 0; r < replicates; r++) q[r] = (q[r] as number) + (square[r] as number);
  }
  // What `anovaCorrelation` works out of the design alone.
  const estimable = sessions > 1 && decisions > sessions;
  const m0 = (decisions - squaredSizes) / (sessions - 1);
  // v(0), which the clipped estimate often is: the same terms, each 1/n_f, so the same sum.
  const atZero = contrastScaleOf(lengths, sizes, 0);
  for (let r = 0; r < replicates; r++) {
    // anovaSums
    let pooledSquares = 0;
    for (let a = 0; a < k; a++) pooledSquares += (totals[r * k + a] as number) ** 2;
    const squaresOf = q[r] as number;
    const between = squaresOf - pooledSquares / decisions;
    const within = decisions - squaresOf;
    // anovaCorrelation
    let correlation = 0;
    if (estimable) {
      const msb = between / (sessions - 1);
      const msw = within / (decisions - sessions);
      const denominator = msb + (m0 - 1) * msw;
      if (denominator > 0) correlation = Math.min(0.999, Math.max(0, (msb - msw) / denominator));
    }
    scale[r] = observed / (correlation === 0 ? atZero : contrastScaleOf(lengths, sizes, correlation));
  }
}

/** `contrastScale` over typed arrays: Σ_f (1 + (m̃_f − 1)ρ)/n_f, framing 0 first. */
function contrastScaleOf(lengths: Float64Array, sizes: Float64Array, rho: number): number {
  let v = 0;
  for (let f = 0; f < lengths.length; f++)
    v += (1 + ((lengths[f] as number) - 1) * rho) / (sizes[f] as number);
  return v;
}

/** k actions: every session's propensities Dirichlet about the pooled rates, then its m decisions. */
function drawSessions(
  designs: readonly FramingSessions[],
  pooled: readonly number[],
  alpha: readonly number[],
  rho: number,
  replicates: number,
  rng: UniformSource,
  out: Int32Array[],
  squares: Float64Array[],
): void {
  const k = pooled.length;
  const propensity = new Float64Array(k);
  const session = new Int32Array(k);
  for (let r = 0; r < replicates; r++) {
    designs.forEach((design, f) => {
      const target = out[f] as Int32Array;
      const square = squares[f] as Float64Array;
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
        session.fill(0);
        for (let d = 0; d < m; d++) {
          let u = rng.next();
          let a = 0;
          while (a < k - 1 && u >= (propensity[a] as number)) {
            u -= propensity[a] as number;
            a++;
          }
          session[a] = (session[a] as number) + 1;
        }
        let q = 0;
        for (let a = 0; a < k; a++) {
          target[r * k + a] = (target[r * k + a] as number) + (session[a] as number);
          q += (session[a] as number) ** 2;
        }
        square[r] = (square[r] as number) + q / m;
      }
    });
  }
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
  squares: Float64Array[],
): void {
  const tableFor = sessionTables(p, concentration);
  // Every session draws one uniform per replicate, so a framing's uniforms are read a block of replicates
  // at a time (the stream's next ones, in the same order as one `next()` per session).
  let widest = 1;
  for (const design of designs) widest = Math.max(widest, design.lengths.length);
  const perBlock = Math.max(1, Math.floor(UNIFORM_BLOCK / widest));
  const uniforms = new Float64Array(perBlock * widest);
  for (let f = 0; f < designs.length; f++) {
    const { lengths } = designs[f] as FramingSessions;
    drawFramingSessions(
      flatSessionTables(lengths, tableFor),
      out[f] as Int32Array,
      squares[f] as Float64Array,
      replicates,
      rng,
      uniforms,
      perBlock,
    );
  }
}

/**
 * One framing of `drawTwoActionSessions`: its sessions' first-action counts summed per replicate into
 * target[2r] (the rest into target[2r + 1]) and their ANOVA terms into square[r]. A top-level function
 * over typed arrays, so that V8 keeps one optimised copy across framings, units and analyses.
 */
function drawFramingSessions(
  tables: FlatSessionTables,
  target: Int32Array,
  square: Float64Array,
  replicates: number,
  rng: UniformSource,
  uniforms: Float64Array,
  perBlock: number,
): void {
  const { cdfs, guides, cdfAt, guideAt, guideSize, termAt, terms, decisions: n } = tables;
  const S = cdfAt.length;
  for (let first = 0; first < replicates; first += perBlock) {
    const count = Math.min(perBlock, replicates - first);
    if (S > 0) rng.fill(uniforms, count * S);
    for (let b = 0; b < count; b++) {
      const r = first + b;
      let x = 0;
      let q = 0;
      for (let s = 0, at = b * S; s < S; s++, at++) {
        const u = uniforms[at] as number;
        const c = cdfAt[s] as number;
        let i = guides[(guideAt[s] as number) + ((u * (guideSize[s] as number)) | 0)] as number;
        while ((cdfs[c + i] as number) <= u) i++;
        x += i;
        q += terms[(termAt[s] as number) + i] as number;
      }
      target[2 * r] = x;
      target[2 * r + 1] = n - x;
      square[r] = q;
    }
  }
}

/** Uniforms read per block in `drawTwoActionSessions`. */
const UNIFORM_BLOCK = 1 << 14;

/**
 * The sessions' guide tables in flat arrays, each distinct length's table once: session s reads its CDF
 * at cdfs[cdfAt[s] ..] and its guide at guides[guideAt[s] .. guideAt[s] + guideSize[s]) (one flat read per
 * draw instead of an object per session, and a design's few lengths copied once, not once per session).
 */
interface FlatSessionTables {
  readonly cdfs: Float64Array;
  readonly guides: Int32Array;
  readonly cdfAt: Int32Array;
  readonly guideAt: Int32Array;
  readonly guideSize: Int32Array;
  readonly termAt: Int32Array;
  readonly terms: Float64Array;
  /** The framing's decisions: Σ of its sessions' lengths. */
  readonly decisions: number;
}

function flatSessionTables(
  lengths: readonly number[],
  tableFor: (m: number) => GuideTable,
): FlatSessionTables {
  type Placed = { table: GuideTable; cdfAt: number; guideAt: number; termAt: number };
  const distinct = new Map<number, Placed>();
  let cdfSize = 0;
  let guideTotal = 0;
  let termTotal = 0;
  for (const m of lengths) {
    if (distinct.has(m)) continue;
    const table = tableFor(m);
    distinct.set(m, { table, cdfAt: cdfSize, guideAt: guideTotal, termAt: termTotal });
    cdfSize += table.cdf.length;
    guideTotal += table.guide.length;
    termTotal += m + 1;
  }
  const cdfs = new Float64Array(cdfSize);
  const guides = new Int32Array(guideTotal);
  // A session of m decisions with i of the first action adds (i² + (m − i)²)/m to the ANOVA's sum of
  // squares: the same expression, worked out once per (m, i) instead of once per draw.
  const terms = new Float64Array(termTotal);
  for (const [m, { table, cdfAt, guideAt, termAt }] of distinct) {
    cdfs.set(table.cdf, cdfAt);
    guides.set(table.guide, guideAt);
    for (let i = 0; i <= m; i++) terms[termAt + i] = (i * i + (m - i) * (m - i)) / m;
  }
  const S = lengths.length;
  const cdfAt = new Int32Array(S);
  const guideAt = new Int32Array(S);
  const guideSize = new Int32Array(S);
  const termAt = new Int32Array(S);
  let decisions = 0;
  for (let s = 0; s < S; s++) {
    const m = lengths[s] as number;
    const placed = distinct.get(m) as Placed;
    cdfAt[s] = placed.cdfAt;
    guideAt[s] = placed.guideAt;
    guideSize[s] = placed.table.guide.length;
    termAt[s] = placed.termAt;
    decisions += m;
  }
  return { cdfs, guides, cdfAt, guideAt, guideSize, termAt, terms, decisions };
}

/**
 * Two actions, some sessions shared with the player's other games (shared-session-propensities.ts): a
 * shared session's propensity is the game's beta quantile at the session's uniform of the replicate, and
 * its m decisions Bernoulli at that propensity; the others are drawn as in `drawTwoActionSessions`.
 */
function drawSharedTwoActionSessions(
  cells: readonly PlannedCell[],
  p: number,
  concentration: number,
  replicates: number,
  rng: UniformSource,
  shared: SharedPropensities,
  out: Int32Array[],
  squares: Float64Array[],
): void {
  const quantiles = betaQuantiles(p * concentration, (1 - p) * concentration);
  const S = shared.index.size;
  const tableFor = sessionTables(p, concentration);
  cells.forEach((pc, f) => {
    // The framing's sessions: length and shared column (−1: drawn on its own), each weight times.
    const sessions: { m: number; column: number; table: GuideTable }[] = [];
    const clusters = pc.unit === "session" ? pc.cell.clusters : undefined;
    if (clusters === undefined) {
      for (let d = 0; d < pc.n; d++) sessions.push({ m: 1, column: -1, table: tableFor(1) });
    } else {
      clusters.forEach((cluster, i) => {
        const m = pc.actions.reduce((sum, a) => sum + (cluster[a] ?? 0), 0);
        if (m === 0) return;
        const weight = pc.cell.cluster_weights?.[i] ?? 1;
        const id = pc.cell.cluster_ids?.[i];
        const column = weight === 1 && id !== undefined ? (shared.index.get(id) ?? -1) : -1;
        for (let w = 0; w < weight; w++) sessions.push({ m, column, table: tableFor(m) });
      });
    }
    const target = out[f] as Int32Array;
    const square = squares[f] as Float64Array;
    for (let r = 0; r < replicates; r++) {
      let x = 0;
      let n = 0;
      let q = 0;
      for (const { m, column, table } of sessions) {
        let i = 0;
        if (column >= 0) {
          const u = shared.uniforms[r * S + column] as number;
          const propensity = quantiles[Math.min(QUANTILES - 1, Math.floor(u * QUANTILES))] as number;
          for (let d = 0; d < m; d++) if (rng.next() < propensity) i++;
        } else {
          i = guideIndex(table, rng.next());
        }
        x += i;
        n += m;
        q += (i * i + (m - i) * (m - i)) / m;
      }
      target[2 * r] = x;
      target[2 * r + 1] = n - x;
      square[r] = q;
    }
  });
}

/**
 * The guide table of a session's first-action count for each session length, built once per length
 * (a design has few distinct lengths, and every replicate draws from them).
 */
function sessionTables(p: number, concentration: number): (m: number) => GuideTable {
  const tables = new Map<number, GuideTable>();
  return (m) => {
    let table = tables.get(m);
    if (table === undefined) {
      table = guideTable(0, sessionMasses(m, p, concentration));
      tables.set(m, table);
    }
    return table;
  };
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
