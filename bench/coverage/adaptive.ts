/**
 * `npm run adaptive-check`: adaptive stopping by simulation, a benchmark and not a test — it prints a table.
 *
 * Each row simulates `STUDIES` (player, game) cells of a study under the "invariance" rule exactly as the
 * server runs it: one trial per framing per block (the permuted-block schedule), the sequential
 * e-process of src/domain/adaptive updated with every complete block, a look after every `look` complete
 * blocks from `min` on, a stop when e ≥ 1/α = 20, at most `max` blocks (the design's trials_per_cell).
 * Each row runs under both invariance tests (`universal_inference`, `within_block_permutation`) on the
 * same simulated choices.
 *
 * - "declares an effect": the share of studies that stopped. With no framing effect it is the false
 *   rejection rate under continuous monitoring (looks after every block), which must be ≤ 5%.
 * - "mean trials": trials played per (player, game) (blocks × framings), beside the registered fixed
 *   design (every block played), whose power is at least the sequential one's. "Smallest fixed design at
 *   that power": the fewest trials per framing with which a fixed design's Pearson χ² test at 5% rejects
 *   in at least min(the sequential power, 99%) of `STUDIES` fresh studies — a design one could only choose
 *   knowing the effect in advance, so the stricter comparison. Found by bisection on n in 1 … 4 × max,
 *   each n's power estimated on its own `STUDIES` simulated fixed studies (a stream seeded by the row and
 *   the power, so both tests' lines meet the same fixed design).
 * - "R coverage at the stop": how often the 95% R interval of `robustnessAnalysis` (the one the study's
 *   analysis reports) on the counts at the stop covers the true R (B = `REPLICATES`); beside it R's
 *   anytime-valid interval (the one reported with a stop) and its mean width. The "no stop" rows play a
 *   fixed number of blocks with no rule: the fixed-n interval's coverage at that n unselected.
 *
 * Usage: npm run adaptive-check [-- --studies 1000 --replicates 1000 --only <substring> --coverage no
 *   --test both|universal_inference|within_block_permutation --cs-alpha 0.5,0.9]
 */

import { createBootstrapRng, type UniformSource } from "../../src/analysis/sampling/fast-rng.js";
import { INVARIANCE_TESTS, type InvarianceTest } from "../../src/domain/adaptive/adaptive-design.js";
import { InvarianceEProcess } from "../../src/domain/adaptive/invariance-e-process.js";
import {
  arrangementsWeight,
  logOrbitSize,
  WithinBlockPermutationEProcess,
} from "../../src/domain/adaptive/permutation-e-process.js";
import { anytimeRInterval } from "../../src/domain/adaptive/r-confidence-sequence.js";
import { jensenShannon } from "../../src/domain/divergence.js";
import { pearsonHomogeneityP } from "./chi-square.js";
import { ordinaryInterval } from "./ordinary-interval.js";
import { arg, ONLY, REPLICATES, STUDIES } from "./run-options.js";

interface Row {
  readonly name: string;
  /** Every framing's choice distribution. */
  readonly p: readonly (readonly number[])[];
  /** At most this many blocks (trials per cell), a look every `look` blocks from `min` on. */
  readonly max: number;
  readonly look?: number;
  readonly min?: number;
  /** The width rule's target: also stop once R's anytime-valid interval is narrower than it. */
  readonly width?: number;
  /** With a width target: false = the width rule alone (no invariance test). */
  readonly invariance?: boolean;
}

/** `--test NAME`: run the rows under one invariance test only (both by default, each row twice). */
const TEST_ARG = arg("test", "both");
const TESTS: readonly InvarianceTest[] =
  TEST_ARG === "both" ? INVARIANCE_TESTS : INVARIANCE_TESTS.filter((t) => t === TEST_ARG);
if (TESTS.length === 0) {
  throw new Error(`--test ${TEST_ARG} is not a test; valid: both, ${INVARIANCE_TESTS.join(", ")}.`);
}
type Process = InvarianceEProcess | WithinBlockPermutationEProcess;

/** `--coverage no`: skip the R intervals (the e-process alone is fast; the analysis at n = 300 is not). */
const COVERAGE = arg("coverage", "yes") !== "no";
const ALPHA = 0.05;
/**
 * `--cs-alpha a,b`: also the anytime interval's coverage and mean width at the stop at these levels, one
 * extra column each — whether a looser confidence sequence could be tuned to cover 95% (it cannot: at
 * α′ = 0.9 it still covers 100% where effects stop, its Bonferroni split and worst-case bounds dominate).
 */
const CS_ALPHAS = arg("cs-alpha", "")
  .split(",")
  .filter((x) => x !== "")
  .map(Number);

const two = (p: number): number[] => [p, 1 - p];
const times = (n: number, p: readonly number[]): number[][] => Array.from({ length: n }, () => [...p]);
const third = [1 / 3, 1 / 3, 1 / 3];
const ROWS: Row[] = [
  { name: "no effect, 2 framings, 2 actions, p .5", p: times(2, two(0.5)), max: 300 },
  { name: "no effect, 2 framings, 2 actions, p .95", p: times(2, two(0.95)), max: 300 },
  { name: "no effect, 2 framings, deterministic (p 1)", p: times(2, two(1)), max: 300 },
  { name: "no effect, 11 framings, 2 actions, p .5", p: times(11, two(0.5)), max: 300 },
  { name: "no effect, 2 framings, 3 actions, uniform", p: times(2, third), max: 300 },
  { name: "no effect, 11 framings, 3 actions (.6 .3 .1)", p: times(11, [0.6, 0.3, 0.1]), max: 300 },
  { name: "no effect, 4 framings, 6 actions, uniform", p: times(4, Array(6).fill(1 / 6)), max: 300 },
  { name: "no effect, 2 framings, p .5, at most 5 blocks", p: times(2, two(0.5)), max: 5 },
  {
    name: "no effect, 11 framings, p .5, look every 10 from 10",
    p: times(11, two(0.5)),
    max: 300,
    look: 10,
    min: 10,
  },
  { name: "strong effect, 2 framings, .2 vs .8", p: [two(0.2), two(0.8)], max: 300 },
  {
    name: "strong effect, 11 framings, 6 at .2 and 5 at .8",
    p: [...times(6, two(0.2)), ...times(5, two(0.8))],
    max: 300,
  },
  {
    name: "strong effect, 11 framings, one at .9, ten at .2",
    p: [two(0.9), ...times(10, two(0.2))],
    max: 300,
  },
  {
    name: "strong effect, 2 framings, 3 actions (.7 .2 .1) vs (.1 .2 .7)",
    p: [
      [0.7, 0.2, 0.1],
      [0.1, 0.2, 0.7],
    ],
    max: 300,
  },
  { name: "deterministic effect, 2 framings, 1 vs 0", p: [two(1), two(0)], max: 300 },
  { name: "moderate effect, 2 framings, .35 vs .65", p: [two(0.35), two(0.65)], max: 300 },
  // Anchors for the fixed-n interval: the same effects at about the strong rows' mean stop, never
  // stopped — what that interval covers at such n with no stopping rule selecting the data.
  {
    name: "no stop, 14 blocks, .2 vs .8",
    p: [two(0.2), two(0.8)],
    max: 14,
    invariance: false,
  },
  {
    name: "no stop, 9 blocks, 11 framings, one at .9, ten at .2",
    p: [two(0.9), ...times(10, two(0.2))],
    max: 9,
    invariance: false,
  },
  {
    name: "no stop, 12 blocks, 3 actions (.7 .2 .1) vs (.1 .2 .7)",
    p: [
      [0.7, 0.2, 0.1],
      [0.1, 0.2, 0.7],
    ],
    max: 12,
    invariance: false,
  },
  {
    name: "width rule 0.1, deterministic (p 1), 2 framings",
    p: times(2, two(1)),
    max: 300,
    width: 0.1,
    invariance: false,
  },
  {
    name: "width rule 0.2, no effect, 2 framings, p .5",
    p: times(2, two(0.5)),
    max: 300,
    width: 0.2,
    invariance: false,
  },
  {
    name: "width rule 0.2, no effect, 11 framings, 3 actions (.6 .3 .1)",
    p: times(11, [0.6, 0.3, 0.1]),
    max: 300,
    width: 0.2,
    invariance: false,
  },
  {
    name: "invariance or width 0.3, moderate effect, .35 vs .65",
    p: [two(0.35), two(0.65)],
    max: 300,
    width: 0.3,
  },
];

function draw(p: readonly number[], rng: UniformSource): number {
  let u = rng.next();
  let a = 0;
  while (a < p.length - 1 && u >= (p[a] as number)) {
    u -= p[a] as number;
    a++;
  }
  return a;
}

function trueR(p: readonly (readonly number[])[]): number {
  let max = 0;
  for (const a of p) for (const b of p) max = Math.max(max, jensenShannon(a, b));
  return 1 - max / Math.LN2;
}

/** One (player, game) under the rule: the counts at the stop, its block, and whether it rejected. */
function sequentialStudy(
  row: Row,
  test: InvarianceTest,
  rng: UniformSource,
): { counts: number[][]; blocks: number; rejected: boolean; process: Process } {
  const k = (row.p[0] as number[]).length;
  const process =
    test === "within_block_permutation" ? new WithinBlockPermutationEProcess(k) : new InvarianceEProcess(k);
  const counts = row.p.map(() => new Array<number>(k).fill(0));
  const look = row.look ?? 1;
  const min = row.min ?? 1;
  for (let block = 1; block <= row.max; block++) {
    const choices = row.p.map((p, f) => {
      const a = draw(p, rng);
      (counts[f] as number[])[a] = ((counts[f] as number[])[a] as number) + 1;
      return { stratum: "", framing: String(f), action: a };
    });
    process.addBlock(choices);
    if (block < min || block % look !== 0) continue;
    if (row.invariance !== false && process.eValue() >= 1 / ALPHA) {
      return { counts, blocks: block, rejected: true, process };
    }
    if (row.width !== undefined && anytimeInterval(process, row).width < row.width) {
      return { counts, blocks: block, rejected: false, process };
    }
  }
  return { counts, blocks: row.max, rejected: false, process };
}

/** Power of the fixed design's χ² test with n trials per framing. */
function fixedPower(row: Row, n: number, rng: UniformSource): number {
  let rejected = 0;
  for (let s = 0; s < STUDIES; s++) {
    const counts = row.p.map((p) => {
      const c = new Array<number>(p.length).fill(0);
      for (let i = 0; i < n; i++) {
        const a = draw(p, rng);
        c[a] = (c[a] as number) + 1;
      }
      return c;
    });
    if (pearsonHomogeneityP(counts) < ALPHA) rejected++;
  }
  return rejected / STUDIES;
}

/** The smallest n per framing (≤ 4 × max) whose fixed design reaches the power; null if none does. */
function fixedN(row: Row, power: number, rng: UniformSource): number | null {
  let lo = 1;
  let hi = row.max * 4;
  if (fixedPower(row, hi, rng) < power) return null;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (fixedPower(row, mid, rng) >= power) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * fixedN with a stream of its own (seeded by the row and the power), so both tests' lines of a row
 * compare against the same fixed design when their powers agree, and it is searched once.
 */
const fixedNs = new Map<string, number | null>();
function fixedNOnce(row: Row, power: number): number | null {
  const key = `${row.name}\u0000${power}`;
  if (!fixedNs.has(key)) fixedNs.set(key, fixedN(row, power, createBootstrapRng(`adaptive-fixed:${key}`)));
  return fixedNs.get(key) as number | null;
}

/** R's anytime-valid interval (r-confidence-sequence.ts) on the choices so far, as the server has it. */
function anytimeInterval(process: Process, row: Row, alpha = ALPHA) {
  return anytimeRInterval(
    process.cells(),
    row.p.map((_, f) => String(f)),
    (row.p[0] as number[]).length,
    alpha,
    row.p.length,
  );
}

/** Whether the anytime-valid interval at the stop covers the true R, and its width. */
function anytimeCovers(
  process: Process,
  row: Row,
  truth: number,
  alpha = ALPHA,
): { covered: boolean; width: number } {
  const interval = anytimeInterval(process, row, alpha);
  return {
    covered: interval.lower <= truth + 1e-12 && truth <= interval.upper + 1e-12,
    width: interval.width,
  };
}

/** Whether the analysis's 95% R interval on the counts covers the true R. */
function covers(counts: readonly (readonly number[])[], truth: number, seed: number): boolean {
  const { lower, upper } = ordinaryInterval(counts, seed);
  return lower <= truth + 1e-12 && truth <= upper + 1e-12;
}

/**
 * g*, the largest expected log factor of a block any within-block permutation bet can have: the bets
 * equal to the true rates (Kelly), Σ over the block's outcomes a of P(a)·log(|orbit|·P(a)/P(orbit)). By
 * Wald's identity a test that stops every study needs E[τ] ≥ log(1/α)/g* blocks, whatever its bets.
 * Null when the outcomes are too many to list (none of the effect rows).
 */
function kellyGrowth(p: readonly (readonly number[])[]): number | null {
  const k = (p[0] as number[]).length;
  const outcomes = k ** p.length;
  if (outcomes > 100_000) return null;
  let growth = 0;
  for (let x = 0; x < outcomes; x++) {
    const a = p.map((_, f) => Math.floor(x / k ** f) % k);
    let logP = 0;
    a.forEach((action, f) => {
      logP += Math.log((p[f] as number[])[action] as number);
    });
    if (logP === -Infinity) continue;
    const multiset = new Array<number>(k).fill(0);
    for (const action of a) multiset[action] = (multiset[action] as number) + 1;
    growth += Math.exp(logP) * (logP + logOrbitSize(multiset) - Math.log(arrangementsWeight(p, multiset)));
  }
  return growth;
}

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
console.log(
  "| case | test | true R | declares an effect | mean trials (registered design) | fewer than the registered design | smallest fixed design at that power | fewer than it | R coverage at the stop (fixed-n interval) | R coverage at the stop (anytime interval) | its mean width | permutation bound: trials ≥ log 20 / g* (fewer than the fixed design at most) |",
);
console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
const started = Date.now();
for (const [row, test] of ROWS.filter((r) => r.name.includes(ONLY)).flatMap((r) =>
  // The width rule alone runs no test: one line for it.
  (r.invariance === false ? TESTS.slice(0, 1) : TESTS).map((t) => [r, t] as const),
)) {
  // The same seed for both tests: they see the same choices, block by block.
  const rng = createBootstrapRng(`adaptive:${row.name}`);
  const truth = trueR(row.p);
  const framings = row.p.length;
  let rejected = 0;
  let trials = 0;
  let covered = 0;
  let anytimeCovered = 0;
  let width = 0;
  const tunedCovered = CS_ALPHAS.map(() => ({ covered: 0, width: 0 }));
  for (let s = 0; s < STUDIES; s++) {
    const study = sequentialStudy(row, test, rng);
    if (study.rejected) rejected++;
    trials += study.blocks * framings;
    if (COVERAGE && covers(study.counts, truth, s + 1)) covered++;
    const anytime = anytimeCovers(study.process, row, truth);
    if (anytime.covered) anytimeCovered++;
    width += anytime.width;
    CS_ALPHAS.forEach((a, i) => {
      const tuned = anytimeCovers(study.process, row, truth, a);
      const sums = tunedCovered[i] as { covered: number; width: number };
      if (tuned.covered) sums.covered++;
      sums.width += tuned.width;
    });
  }
  const power = rejected / STUDIES;
  const meanTrials = trials / STUDIES;
  // Rows that never test (the width rule alone, the no-stop anchors) have no power to match.
  const effect = truth < 1 && row.invariance !== false;
  const n = effect ? fixedNOnce(row, Math.min(power, 0.99)) : null;
  const fixed = n === null ? "—" : `${n * framings} (${n} per framing)`;
  const saving = n === null ? "—" : pct(1 - meanTrials / (n * framings));
  const growth = effect ? kellyGrowth(row.p) : null;
  const fewest = growth === null ? null : (Math.log(1 / ALPHA) / growth) * framings;
  const bound =
    fewest === null
      ? "—"
      : `${fewest.toFixed(1)}${n === null ? "" : ` (${pct(1 - fewest / (n * framings))})`}`;
  console.log(
    `| ${row.name} | ${row.invariance === false ? "—" : test} | ${truth.toFixed(4)} | ${pct(power)} | ${meanTrials.toFixed(1)} (${row.max * framings}) | ${pct(1 - meanTrials / (row.max * framings))} | ${fixed} | ${saving} | ${COVERAGE ? pct(covered / STUDIES) : "—"} | ${pct(anytimeCovered / STUDIES)} | ${(width / STUDIES).toFixed(3)} | ${bound} |${tunedCovered.map((t, i) => ` α′ ${CS_ALPHAS[i]}: ${pct(t.covered / STUDIES)} ${(t.width / STUDIES).toFixed(3)} |`).join("")}`,
  );
}
console.error(
  `${STUDIES} studies per row, B = ${REPLICATES}; ${((Date.now() - started) / 1000).toFixed(0)} s`,
);
