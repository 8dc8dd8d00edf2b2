/**
 * `npm run size:session-design [-- --studies 1000 --replicates 500 --only <substring>]`: the size of the
 * invariance test where the session-design null applies (sessions of different lengths, each in one
 * framing), on its exact path and on its normal approximation (session-design-normal-null.ts), on the same
 * simulated records. A benchmark, not a test: it prints a table.
 *
 * Each row simulates `STUDIES` records of one (player, game) with no framing effect: every framing's
 * sessions (their lengths given per framing) are Dirichlet-multinomial at the same rates π with
 * intra-session correlation ρ, as the null model itself assumes. For each record the invariance test's
 * p-value is computed with the null drawn exactly (`exact`), from the normal approximation (`normal`,
 * forced even where the thresholds would keep the exact draws), each from B = `REPLICATES` null records,
 * and which of the two the analysis takes by default. Reported: how often each rejects at 5% (Monte Carlo
 * standard error √(.05·.95/studies): 0.7 points at 1,000 studies), and how often their decisions differ.
 */
import type { CountCell } from "../../src/analysis/count-cells.js";
import { permutationFill } from "../../src/analysis/invariance/invariance-permutation.js";
import { drawsNormalDesign } from "../../src/analysis/invariance/session-design-normal-null.js";
import { planRobustness } from "../../src/analysis/robustness/robustness-plan.js";
import { StatisticsEvaluator } from "../../src/analysis/robustness/robustness-statistics.js";
import { createBootstrapRng, type UniformSource } from "../../src/analysis/sampling/fast-rng.js";
import { gamma } from "../../src/analysis/sampling/gamma-sampler.js";
import type { ClusterSumMethod } from "../../src/analysis/sampling/normal-cluster-sums.js";
import { ONLY, REPLICATES, STUDIES } from "./run-options.js";

interface Row {
  readonly name: string;
  /** The rates of every action, the same in every framing (no effect). */
  readonly pi: readonly number[];
  readonly rho: number;
  /** Per framing, its sessions' lengths. */
  readonly lengths: readonly (readonly number[])[];
}

const repeat = (count: number, m: number): number[] => Array.from({ length: count }, () => m);
/** `count` sessions of lengths 1–8 in turn (the scale record's cell players). */
const mixed = (count: number): number[] => Array.from({ length: count }, (_, s) => 1 + (s % 8));
const framings = (F: number, lengths: number[]): number[][] => Array.from({ length: F }, () => lengths);

const ROWS: Row[] = [
  // From the threshold (200 sessions in every framing) up: the default takes the normal path.
  {
    name: "2 actions .5, ρ .3: 300 × 1 vs 200 × 6 (at the threshold)",
    pi: [0.5, 0.5],
    rho: 0.3,
    lengths: [repeat(300, 1), repeat(200, 6)],
  },
  {
    name: "2 actions .3, ρ 0: 11 framings × 250 of lengths 1–8",
    pi: [0.3, 0.7],
    rho: 0,
    lengths: framings(11, mixed(250)),
  },
  {
    name: "2 actions .3, ρ .05: 11 framings × 250 of lengths 1–8",
    pi: [0.3, 0.7],
    rho: 0.05,
    lengths: framings(11, mixed(250)),
  },
  {
    name: "2 actions .3, ρ .6: 11 framings × 250 of lengths 1–8",
    pi: [0.3, 0.7],
    rho: 0.6,
    lengths: framings(11, mixed(250)),
  },
  {
    name: "2 actions .05, ρ .3: 3 framings × 250 of lengths 1–8",
    pi: [0.05, 0.95],
    rho: 0.3,
    lengths: framings(3, mixed(250)),
  },
  {
    name: "2 actions .5, ρ .3: 3 framings 400 × 1, 250 × 1–8, 200 × 20",
    pi: [0.5, 0.5],
    rho: 0.3,
    lengths: [repeat(400, 1), mixed(250), repeat(200, 20)],
  },
  {
    name: "3 actions .5/.3/.2, ρ .3: 300 × 1 vs 200 × 6",
    pi: [0.5, 0.3, 0.2],
    rho: 0.3,
    lengths: [repeat(300, 1), repeat(200, 6)],
  },
  {
    name: "3 actions .5/.3/.2, ρ .3: 5 framings × 250 of lengths 1–8",
    pi: [0.5, 0.3, 0.2],
    rho: 0.3,
    lengths: framings(5, mixed(250)),
  },
  // A handful of sessions per framing, strongly correlated: records whose framings are each unanimous
  // (every session of a framing chose alike) are common, and a ρ̂ estimated about each framing's own
  // rates was 0 on exactly those.
  {
    name: "2 actions .5, ρ .99: 5, 5 vs 4, 6 (two sessions per framing)",
    pi: [0.5, 0.5],
    rho: 0.99,
    lengths: [
      [5, 5],
      [4, 6],
    ],
  },
  {
    name: "2 actions .5, ρ .6: 5, 5 vs 4, 6 (two sessions per framing)",
    pi: [0.5, 0.5],
    rho: 0.6,
    lengths: [
      [5, 5],
      [4, 6],
    ],
  },
  {
    name: "2 actions .5, ρ .9: 4, 4, 4 vs 3, 4, 5",
    pi: [0.5, 0.5],
    rho: 0.9,
    lengths: [
      [4, 4, 4],
      [3, 4, 5],
    ],
  },
  {
    name: "2 actions .3, ρ .6: 10 × 1 vs 3 × 10",
    pi: [0.3, 0.7],
    rho: 0.6,
    lengths: [repeat(10, 1), repeat(3, 10)],
  },
  // Below it (the default keeps the exact draws): the normal path forced, to show why the threshold is there.
  {
    name: "2 actions .5, ρ .3: 300 × 1 vs 150 × 6 (just below)",
    pi: [0.5, 0.5],
    rho: 0.3,
    lengths: [repeat(300, 1), repeat(150, 6)],
  },
  {
    name: "2 actions .5, ρ .3: 300 × 1 vs 50 × 6",
    pi: [0.5, 0.5],
    rho: 0.3,
    lengths: [repeat(300, 1), repeat(50, 6)],
  },
  {
    name: "2 actions .5, ρ .3: 300 × 1 vs 10 × 30 (far below)",
    pi: [0.5, 0.5],
    rho: 0.3,
    lengths: [repeat(300, 1), repeat(10, 30)],
  },
  {
    name: "2 actions .3, ρ 0: 11 framings × 60 of lengths 1–8",
    pi: [0.3, 0.7],
    rho: 0,
    lengths: framings(11, mixed(60)),
  },
  {
    name: "2 actions .3, ρ .05: 11 framings × 60 of lengths 1–8",
    pi: [0.3, 0.7],
    rho: 0.05,
    lengths: framings(11, mixed(60)),
  },
  {
    name: "2 actions .3, ρ .6: 11 framings × 60 of lengths 1–8",
    pi: [0.3, 0.7],
    rho: 0.6,
    lengths: framings(11, mixed(60)),
  },
  {
    name: "2 actions .05, ρ .3: 3 framings × 80 of lengths 1–8",
    pi: [0.05, 0.95],
    rho: 0.3,
    lengths: framings(3, mixed(80)),
  },
  {
    name: "3 actions .5/.3/.2, ρ .3: 300 × 1 vs 50 × 6",
    pi: [0.5, 0.3, 0.2],
    rho: 0.3,
    lengths: [repeat(300, 1), repeat(50, 6)],
  },
  {
    name: "4 actions .4/.3/.2/.1, ρ .1: 4 framings × 60 of lengths 1–8",
    pi: [0.4, 0.3, 0.2, 0.1],
    rho: 0.1,
    lengths: framings(4, mixed(60)),
  },
];

/** One simulated record: every session's propensities Dirichlet(π(1 − ρ)/ρ) (π at ρ = 0), then its decisions. */
function simulate(row: Row, rng: UniformSource): CountCell[] {
  const actions = row.pi.map((_, a) => `a${a}`);
  const concentration = row.rho > 0 ? (1 - row.rho) / row.rho : 0;
  return row.lengths.map((lengths, f) => {
    const counts: Record<string, number> = {};
    const clusters = lengths.map((m) => {
      let propensity = [...row.pi];
      if (concentration > 0) {
        const g = row.pi.map((p) => gamma(p * concentration, rng));
        const sum = g.reduce((s, x) => s + x, 0);
        propensity = g.map((x) => x / sum);
      }
      const session: Record<string, number> = {};
      for (let d = 0; d < m; d++) {
        let u = rng.next();
        let a = 0;
        while (a < actions.length - 1 && u >= (propensity[a] as number)) {
          u -= propensity[a] as number;
          a++;
        }
        const action = actions[a] as string;
        session[action] = (session[action] ?? 0) + 1;
        counts[action] = (counts[action] ?? 0) + 1;
      }
      return session;
    });
    return { player: "m", game: "g", framing: `f${f}`, counts, clusters };
  });
}

/** The invariance p-value of a (player, game) record, its null drawn by `method`. */
function pValue(cells: CountCell[], actions: string[], method: ClusterSumMethod, seed: string): number {
  const plan = planRobustness(cells, undefined, { g: null }, { g: actions });
  const evaluator = new StatisticsEvaluator(plan, 1);
  const row = evaluator.layout.unitR[0] as number;
  // The observed R: the evaluator fed the record's own counts as its one replicate.
  const observed = new Float64Array(evaluator.layout.count);
  evaluator.evaluate(
    (cell, _replicates, out) => {
      const pc = plan.cells[cell];
      pc?.actions.forEach((a, i) => {
        out[i] = pc.cell.counts[a] ?? 0;
      });
    },
    1,
    observed,
  );
  const B = REPLICATES;
  const out = new Float64Array(evaluator.layout.count * B);
  evaluator.evaluate(permutationFill(plan, createBootstrapRng(seed), false, method), B, out);
  const R = observed[row] as number;
  let extreme = 0;
  for (let r = 0; r < B; r++) if ((out[row * B + r] as number) <= R + 1e-12) extreme++;
  return (1 + extreme) / (1 + B);
}

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
console.log(`${STUDIES} studies per row, B = ${REPLICATES}; rejection rate at 5% under no effect.`);
console.log("| row | sessions per framing | default path | exact | normal | decisions differ |");
console.log("|---|---|---|---|---|---|");
for (const row of ROWS) {
  if (ONLY && !row.name.includes(ONLY)) continue;
  const rng = createBootstrapRng(`size:${row.name}`);
  const actions = row.pi.map((_, a) => `a${a}`);
  const rejects = { exact: 0, normal: 0 };
  let differ = 0;
  const perFraming = row.lengths.map((l) => l.length);
  const auto = drawsNormalDesign("auto", perFraming);
  const t0 = performance.now();
  for (let s = 0; s < STUDIES; s++) {
    const cells = simulate(row, rng);
    const exact = pValue(cells, actions, "exact", `exact:${s}`) <= 0.05;
    const normal = pValue(cells, actions, "normal", `normal:${s}`) <= 0.05;
    rejects.exact += exact ? 1 : 0;
    rejects.normal += normal ? 1 : 0;
    if (exact !== normal) differ++;
  }
  console.log(
    `| ${row.name} | ${perFraming.join("/")} | ${auto ? "normal" : "exact"} | ${pct(rejects.exact / STUDIES)} | ${pct(rejects.normal / STUDIES)} | ${pct(differ / STUDIES)} | ${((performance.now() - t0) / 1000).toFixed(0)} s`,
  );
}
