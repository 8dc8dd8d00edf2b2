/**
 * `npm run adaptive-at-stop`: an R interval at an adaptive stop that accounts for the stopping rule, by
 * simulation — a benchmark and not a test: it prints tables.
 *
 * `--mode fixed` (the diagnostic): the robustness analysis's ordinary 95% R interval at a FIXED number of
 * trials per framing near where the strong effects stop (no stopping rule selects the data), so that its
 * over-coverage at the stop can be split into what small samples do and what the stop does.
 *
 * `--mode stagewise` (default): the interval by inverting the sequential test under the stagewise
 * ordering (Tsiatis, Rosner & Mehta 1984; Siegmund 1978). An outcome of the procedure is (τ, R̂): the
 * block it stopped after (or "never", after the last block) and R̂ there. It is more extreme (says more
 * against invariance) when it stopped earlier, or at the same block with a lower R̂. A candidate true
 * configuration θ is kept when, under θ, P(at least as extreme as observed) ≥ α/2 and P(at most as
 * extreme) ≥ α/2; the interval is {R(θ)} over the kept θ along the exponential-tilt path through the
 * record's Jeffreys-smoothed rates (TiltPath of multi-action-inversion.ts: one configuration per r). Both
 * probabilities are estimated from `--sims` simulated studies of the same rule under θ, stopped at the
 * observed block at the latest, their uniforms drawn once per observed study (common random numbers, so
 * the tails are step functions of r and the ends found by bisection are stable). Two versions: the
 * conservative one (ties count on both sides) and mid-p (a tie counts one half on each side: the
 * expectation of the randomised inversion, which is what can reach 95% when outcomes are few).
 *
 * Usage: npm run adaptive-at-stop -- [--mode fixed|stagewise] [--studies N] [--sims M] [--replicates B]
 *   [--only TEXT] [--test universal_inference|within_block_permutation|both] [--exact yes]
 *   [--order r|e] [--path record|oracle|groups]
 * (`--replicates 0` skips the ordinary interval at the stop in stagewise mode; docs/science.md has the
 * tables, "An interval at the stop that accounts for the stop".)
 */

import {
  robustnessOfDistributions,
  smoothedDistribution,
  TiltPath,
} from "../../src/analysis/robustness/multi-action-inversion.js";
import { createBootstrapRng, type UniformSource } from "../../src/analysis/sampling/fast-rng.js";
import { INVARIANCE_TESTS, type InvarianceTest } from "../../src/domain/adaptive/adaptive-design.js";
import { InvarianceEProcess } from "../../src/domain/adaptive/invariance-e-process.js";
import { WithinBlockPermutationEProcess } from "../../src/domain/adaptive/permutation-e-process.js";
import { ordinaryInterval } from "./ordinary-interval.js";
import { arg, ONLY, REPLICATES, STUDIES } from "./run-options.js";
import { ExactStopDistribution } from "./stop-distribution-exact.js";
import { FastPermutation, type FastProcess, FastUniversalInference } from "./stop-processes.js";

const ALPHA = 0.05;
const LOG_THRESHOLD = Math.log(1 / ALPHA);
const MODE = arg("mode", "stagewise");
const SIMS = Number(arg("sims", "1000"));
/**
 * `--order r|e`: what orders two studies that stopped after the same block — R̂ there (lower is more
 * extreme), or the e-value there (higher is more extreme: nearly continuous, where R̂, a maximum over
 * pairs of framings at a handful of trials each, ties at 0 in most studies of 11 framings).
 */
const ORDER = arg("order", "r");
/**
 * `--exact yes`: on 2 framings × 2 actions under universal inference, the tails by dynamic programming
 * (stop-distribution-exact.ts) instead of simulated studies — exact, ordered by R̂ at the same block.
 */
const EXACT = arg("exact", "no") === "yes";
/**
 * `--path oracle`: the tilt path through the TRUE rates instead of the record's smoothed ones (a
 * diagnostic, not an interval one could compute): it passes through the truth, so what coverage it
 * loses or gains against the record's path is the path's doing, not the ordering's.
 */
const PATH = arg("path", "record");
if (PATH !== "record" && PATH !== "oracle" && PATH !== "groups") {
  throw new Error(`--path ${PATH} is not a path; valid: record, oracle, groups.`);
}

/**
 * `--path groups` (2 actions): the tilt path through two groups of framings instead of every framing's
 * own rate — the framings sorted by their rate and split where the two groups' pooled binomial
 * likelihood is largest, each framing at its group's Jeffreys-smoothed rate. A path with a shape fitted
 * from the record, not its noise; it suits effects that split the framings in two, as every effect row
 * here does, so it flatters them.
 */
function groupRates(counts: readonly (readonly number[])[]): number[][] {
  const order = counts.map((_, f) => f).sort((f, g) => rate(counts[f]) - rate(counts[g]));
  const logLik = (x: number, n: number): number =>
    (x > 0 ? x * Math.log(x / n) : 0) + (n - x > 0 ? (n - x) * Math.log((n - x) / n) : 0);
  let best = { at: 1, value: -Infinity };
  for (let at = 1; at < order.length; at++) {
    const [x1, n1] = sums(order.slice(0, at).map((f) => counts[f] as number[]));
    const [x2, n2] = sums(order.slice(at).map((f) => counts[f] as number[]));
    const value = logLik(x1, n1) + logLik(x2, n2);
    if (value > best.value) best = { at, value };
  }
  const rates = new Array<number[]>(counts.length);
  for (const part of [order.slice(0, best.at), order.slice(best.at)]) {
    const [x, n] = sums(part.map((f) => counts[f] as number[]));
    const p = (x + 0.5) / (n + 1);
    for (const f of part) rates[f] = [p, 1 - p];
  }
  return rates;
}
const rate = (c: readonly number[] | undefined): number =>
  ((c?.[0] ?? 0) + 0.5) / ((c?.[0] ?? 0) + (c?.[1] ?? 0) + 1);
const sums = (cs: readonly (readonly number[])[]): [number, number] => [
  cs.reduce((s, c) => s + (c[0] as number), 0),
  cs.reduce((s, c) => s + (c[0] as number) + (c[1] as number), 0),
];
if (ORDER !== "r" && ORDER !== "e") throw new Error(`--order ${ORDER} is not an ordering; valid: r, e.`);
const TEST_ARG = arg("test", "universal_inference");
const TESTS: readonly InvarianceTest[] =
  TEST_ARG === "both" ? INVARIANCE_TESTS : INVARIANCE_TESTS.filter((t) => t === TEST_ARG);
if (TESTS.length === 0) {
  throw new Error(`--test ${TEST_ARG} is not a test; valid: both, ${INVARIANCE_TESTS.join(", ")}.`);
}
if (MODE !== "fixed" && MODE !== "stagewise") {
  throw new Error(`--mode ${MODE} is not a mode; valid: fixed, stagewise.`);
}

interface Row {
  readonly name: string;
  readonly p: readonly (readonly number[])[];
  readonly max: number;
  /** Trials per framing for the fixed-n diagnostic. */
  readonly fixed?: readonly number[];
}

const two = (p: number): number[] => [p, 1 - p];
const times = (n: number, p: readonly number[]): number[][] => Array.from({ length: n }, () => [...p]);
const ROWS: Row[] = [
  { name: "strong effect, 2 framings, .2 vs .8", p: [two(0.2), two(0.8)], max: 300, fixed: [5, 8, 10, 14] },
  {
    name: "strong effect, 11 framings, 6 at .2 and 5 at .8",
    p: [...times(6, two(0.2)), ...times(5, two(0.8))],
    max: 300,
    fixed: [3, 5, 8, 10],
  },
  {
    name: "strong effect, 11 framings, one at .9, ten at .2",
    p: [two(0.9), ...times(10, two(0.2))],
    max: 300,
    fixed: [5, 8, 10, 15],
  },
  {
    name: "strong effect, 2 framings, 3 actions (.7 .2 .1) vs (.1 .2 .7)",
    p: [
      [0.7, 0.2, 0.1],
      [0.1, 0.2, 0.7],
    ],
    max: 300,
    fixed: [5, 8, 10, 12],
  },
  { name: "deterministic effect, 2 framings, 1 vs 0", p: [two(1), two(0)], max: 300, fixed: [5, 6] },
  { name: "moderate effect, 2 framings, .35 vs .65", p: [two(0.35), two(0.65)], max: 300, fixed: [50, 77] },
  { name: "no effect, 2 framings, 2 actions, p .5", p: times(2, two(0.5)), max: 300 },
  { name: "no effect, 2 framings, 2 actions, p .95", p: times(2, two(0.95)), max: 300 },
  { name: "no effect, 2 framings, deterministic (p 1)", p: times(2, two(1)), max: 300 },
  { name: "no effect, 11 framings, 2 actions, p .5", p: times(11, two(0.5)), max: 300 },
];

/** Framing f's choice from uniform u: the inverse CDF, monotone in the rates (common random numbers). */
function choose(p: readonly number[], u: number): number {
  let a = 0;
  let rest = u;
  while (a < p.length - 1 && rest >= (p[a] as number)) {
    rest -= p[a] as number;
    a++;
  }
  return a;
}

const rHat = (counts: readonly (readonly number[])[]): number =>
  robustnessOfDistributions(
    counts.map((c) => {
      const n = c.reduce((s, x) => s + x, 0);
      return c.map((x) => x / n);
    }),
  );

function fastProcess(test: InvarianceTest, framings: number, actions: number, max: number): FastProcess {
  return test === "within_block_permutation"
    ? new FastPermutation(framings, actions)
    : new FastUniversalInference(framings, actions, max);
}

/** What a study ends with: the block it stopped after (max + 1 when it never stopped) and its counts. */
interface Outcome {
  readonly code: number;
  readonly counts: number[][];
  /** log E after the last block played. */
  readonly logE: number;
}

/**
 * The observed study, played exactly as the server plays it (the real e-process classes), and checked
 * against the fast process the simulations use: the same stop, or the bench throws.
 */
function observedStudy(row: Row, test: InvarianceTest, rng: UniformSource): Outcome {
  const F = row.p.length;
  const k = (row.p[0] as number[]).length;
  const server =
    test === "within_block_permutation" ? new WithinBlockPermutationEProcess(k) : new InvarianceEProcess(k);
  const fast = fastProcess(test, F, k, row.max);
  const counts = row.p.map(() => new Array<number>(k).fill(0));
  const actions = new Int32Array(F);
  for (let block = 1; block <= row.max; block++) {
    for (let f = 0; f < F; f++) {
      const a = choose(row.p[f] as number[], rng.next());
      actions[f] = a;
      (counts[f] as number[])[a] = ((counts[f] as number[])[a] as number) + 1;
    }
    server.addBlock([...actions].map((action, f) => ({ stratum: "", framing: String(f), action })));
    fast.addBlock(actions);
    const stops = server.eValue() >= 1 / ALPHA;
    if (stops !== fast.logE() >= LOG_THRESHOLD || Math.abs(server.logE() - fast.logE()) > 1e-9) {
      throw new Error(`fast ${test} process disagrees at block ${block}: ${server.logE()} vs ${fast.logE()}`);
    }
    if (stops) return { code: block, counts, logE: fast.logE() };
  }
  return { code: row.max + 1, counts, logE: fast.logE() };
}

/** Tail counts of the simulated studies against the observed outcome (exact: probabilities × sims). */
interface Tails {
  more: number;
  ties: number;
  less: number;
}

/**
 * The simulated studies of one observed study under candidate rates: `sims` studies of the rule, each
 * run until it stops or passes the observed block, on uniforms drawn once (`uniforms[(m·L + b)·F + f]`).
 */
class StopDistribution {
  private readonly F: number;
  private readonly k: number;
  private readonly limit: number;
  private readonly uniforms: Float64Array;
  private readonly process: FastProcess;
  private readonly actions: Int32Array;

  constructor(
    private readonly row: Row,
    test: InvarianceTest,
    private readonly observed: Outcome,
    private readonly observedR: number,
    private readonly sims: number,
    seed: string,
  ) {
    this.F = row.p.length;
    this.k = (row.p[0] as number[]).length;
    this.limit = Math.min(observed.code, row.max);
    const rng = createBootstrapRng(seed);
    this.uniforms = new Float64Array(sims * this.limit * this.F);
    for (let i = 0; i < this.uniforms.length; i++) this.uniforms[i] = rng.next();
    this.process = fastProcess(test, this.F, this.k, row.max);
    this.actions = new Int32Array(this.F);
  }

  tails(rates: readonly (readonly number[])[]): Tails {
    const { F, k, limit, uniforms, process, actions } = this;
    const cdf = rates.map((p) => {
      const c: number[] = [];
      let s = 0;
      for (let a = 0; a < k - 1; a++) {
        s += p[a] as number;
        c.push(s);
      }
      return c;
    });
    const tails: Tails = { more: 0, ties: 0, less: 0 };
    const counts = Array.from({ length: F }, () => new Array<number>(k).fill(0));
    for (let m = 0; m < this.sims; m++) {
      process.reset();
      for (const c of counts) c.fill(0);
      let code = this.row.max + 1;
      for (let b = 0; b < limit; b++) {
        const base = (m * limit + b) * F;
        for (let f = 0; f < F; f++) {
          const u = uniforms[base + f] as number;
          const c = cdf[f] as number[];
          let a = 0;
          while (a < k - 1 && u >= (c[a] as number)) a++;
          actions[f] = a;
          (counts[f] as number[])[a] = ((counts[f] as number[])[a] as number) + 1;
        }
        process.addBlock(actions);
        if (process.logE() >= LOG_THRESHOLD) {
          code = b + 1;
          break;
        }
      }
      if (code < this.observed.code) tails.more++;
      else if (code > this.observed.code) tails.less++;
      else if (ORDER === "e") {
        // Higher log E is more extreme (a study that never stopped: the same rule on its last e-value).
        const e = process.logE();
        if (Math.abs(e - this.observed.logE) <= 1e-9) tails.ties++;
        else if (e > this.observed.logE) tails.more++;
        else tails.less++;
      } else {
        const r = rHat(counts);
        if (Math.abs(r - this.observedR) <= 1e-12) tails.ties++;
        else if (r < this.observedR) tails.more++;
        else tails.less++;
      }
    }
    return tails;
  }
}

interface Interval {
  lower: number;
  upper: number;
}

const BISECTIONS = 11;

/**
 * The stagewise interval at one observed outcome, three versions: the set of r on the tilt path where
 * P_r(at least as extreme) ≥ α/2 and P_r(at most as extreme) ≥ α/2 (ties: both sides, one half each, or
 * the randomised split u and 1 − u with u uniform, drawn once per study, whose two p-values are exactly
 * uniform under the configuration: the randomised test inversion).
 * P_r(at least as extreme) falls as r rises (a smaller effect stops later), so the upper end is its
 * crossing; P_r(at most as extreme) rises with r, so the lower end is its crossing.
 */
function stagewiseInterval(
  distribution: { tails(rates: readonly (readonly number[])[]): Tails },
  path: TiltPath,
  sims: number,
  u: number,
): { conservative: Interval; midP: Interval; randomised: Interval } {
  const cache = new Map<number, Tails>();
  const tailsAt = (r: number): Tails => {
    let t = cache.get(r);
    if (!t) {
      t = distribution.tails(path.at(r));
      cache.set(r, t);
    }
    return t;
  };
  const bottom = path.minimum;
  const end = (keep: (t: Tails) => boolean, upper: boolean): number => {
    // upper: the largest r with keep (keep holds below it); lower: the smallest r with keep.
    const atTop = keep(tailsAt(1));
    const atBottom = keep(tailsAt(bottom));
    if (upper ? atTop : atBottom) return upper ? 1 : bottom;
    if (upper ? !atBottom : !atTop) return upper ? bottom : 1;
    let lo = bottom;
    let hi = 1;
    for (let i = 0; i < BISECTIONS; i++) {
      const mid = (lo + hi) / 2;
      const kept = keep(tailsAt(mid));
      if (upper === kept) lo = mid;
      else hi = mid;
    }
    return upper ? lo : hi;
  };
  const half = (ALPHA / 2) * sims;
  return {
    conservative: {
      lower: end((t) => t.less + t.ties >= half, false),
      upper: end((t) => t.more + t.ties >= half, true),
    },
    midP: {
      lower: end((t) => t.less + t.ties / 2 >= half, false),
      upper: end((t) => t.more + t.ties / 2 >= half, true),
    },
    randomised: {
      lower: end((t) => t.less + (1 - u) * t.ties >= half, false),
      upper: end((t) => t.more + u * t.ties >= half, true),
    },
  };
}

const covers = (i: Interval, truth: number): boolean => i.lower <= truth + 1e-9 && truth <= i.upper + 1e-9;
const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
const se = (p: number, n: number): string => (100 * Math.sqrt(Math.max(p * (1 - p), 0.0025) / n)).toFixed(1);

const started = Date.now();
const rows = ROWS.filter((r) => r.name.includes(ONLY));
if (MODE === "fixed") {
  console.log("| case | true R | trials per framing | ordinary interval covers (MC SE) | its mean width |");
  console.log("| --- | --- | --- | --- | --- |");
  for (const row of rows) {
    const truth = robustnessOfDistributions(row.p);
    for (const n of row.fixed ?? []) {
      const rng = createBootstrapRng(`adaptive-at-stop-fixed:${row.name}:${n}`);
      let covered = 0;
      let width = 0;
      for (let s = 0; s < STUDIES; s++) {
        const counts = row.p.map((p) => {
          const c = new Array<number>(p.length).fill(0);
          for (let i = 0; i < n; i++) {
            const a = choose(p, rng.next());
            c[a] = (c[a] as number) + 1;
          }
          return c;
        });
        const interval = ordinaryInterval(counts, s + 1);
        if (covers(interval, truth)) covered++;
        width += interval.upper - interval.lower;
      }
      const c = covered / STUDIES;
      console.log(
        `| ${row.name} | ${truth.toFixed(4)} | ${n} | ${pct(c)} (${se(c, STUDIES)}) | ${(width / STUDIES).toFixed(3)} |`,
      );
    }
  }
} else {
  console.log(
    "| case | test | true R | stopped | mean blocks | stagewise interval covers, conservative (MC SE) | mean width | mid-p covers | mean width | randomised covers | mean width | misses below / above (randomised) | ordinary interval covers | mean width |",
  );
  console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
  for (const row of rows) {
    for (const test of TESTS) {
      const rng = createBootstrapRng(`adaptive:${row.name}`);
      const truth = robustnessOfDistributions(row.p);
      const k = (row.p[0] as number[]).length;
      const sums = {
        stopped: 0,
        blocks: 0,
        cons: 0,
        consW: 0,
        mid: 0,
        midW: 0,
        rand: 0,
        randW: 0,
        below: 0,
        above: 0,
        ord: 0,
        ordW: 0,
      };
      for (let s = 0; s < STUDIES; s++) {
        const observed = observedStudy(row, test, rng);
        const r = rHat(observed.counts);
        const exact = EXACT && test === "universal_inference" && row.p.length === 2 && k === 2;
        const dp = exact
          ? new ExactStopDistribution(Math.min(observed.code, row.max), observed.code, r, LOG_THRESHOLD)
          : null;
        const distribution = dp
          ? {
              tails: (rates: readonly (readonly number[])[]): Tails => {
                const t = dp.tails((rates[0] as number[])[0] as number, (rates[1] as number[])[0] as number);
                return { more: t.more * SIMS, ties: t.ties * SIMS, less: t.less * SIMS };
              },
            }
          : new StopDistribution(row, test, observed, r, SIMS, `stagewise:${row.name}:${test}:${s}`);
        const pooled = new Array<number>(k).fill(0);
        for (const c of observed.counts) {
          c.forEach((x, a) => {
            pooled[a] = (pooled[a] as number) + x;
          });
        }
        const path =
          PATH === "oracle"
            ? new TiltPath(
                row.p,
                row.p.reduce(
                  (sum, q) => sum.map((x, a) => x + (q[a] as number) / row.p.length),
                  new Array<number>(k).fill(0),
                ),
              )
            : new TiltPath(
                PATH === "groups" && k === 2
                  ? groupRates(observed.counts)
                  : observed.counts.map(smoothedDistribution),
                smoothedDistribution(pooled),
              );
        const u = createBootstrapRng(`stagewise-u:${row.name}:${test}:${s}`).next();
        const { conservative, midP, randomised } = stagewiseInterval(distribution, path, SIMS, u);
        if (observed.code <= row.max) sums.stopped++;
        sums.blocks += Math.min(observed.code, row.max);
        if (covers(conservative, truth)) sums.cons++;
        sums.consW += conservative.upper - conservative.lower;
        if (covers(midP, truth)) sums.mid++;
        sums.midW += midP.upper - midP.lower;
        if (covers(randomised, truth)) sums.rand++;
        else if (truth < randomised.lower) sums.below++;
        else sums.above++;
        sums.randW += randomised.upper - randomised.lower;
        if (REPLICATES > 0) {
          const ordinary = ordinaryInterval(observed.counts, s + 1);
          if (covers(ordinary, truth)) sums.ord++;
          sums.ordW += ordinary.upper - ordinary.lower;
        }
      }
      const n = STUDIES;
      console.log(
        `| ${row.name} | ${test} | ${truth.toFixed(4)} | ${pct(sums.stopped / n)} | ${(sums.blocks / n).toFixed(1)} | ${pct(sums.cons / n)} (${se(sums.cons / n, n)}) | ${(sums.consW / n).toFixed(3)} | ${pct(sums.mid / n)} (${se(sums.mid / n, n)}) | ${(sums.midW / n).toFixed(3)} | ${pct(sums.rand / n)} (${se(sums.rand / n, n)}) | ${(sums.randW / n).toFixed(3)} | ${pct(sums.below / n)} / ${pct(sums.above / n)} | ${REPLICATES > 0 ? pct(sums.ord / n) : "—"} | ${REPLICATES > 0 ? (sums.ordW / n).toFixed(3) : "—"} |`,
      );
    }
  }
}
console.error(
  `${MODE}: ${STUDIES} studies per row, ${MODE === "fixed" ? `B = ${REPLICATES}` : `${SIMS} simulated studies per candidate, B = ${REPLICATES}`}; ${((Date.now() - started) / 1000).toFixed(0)} s`,
);
