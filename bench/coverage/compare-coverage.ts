/**
 * `npm run coverage:compare`: the simulation grid of `compare`, a benchmark and not a test — it prints tables.
 *
 * Each row simulates `STUDIES` records of groups with known framing distributions (one game unless
 * said), compares them with `compareGroups` (B = `REPLICATES`) and reports how often the 95% interval of
 * the difference of R (and of the shift) between the first two groups covers the true difference, the
 * family-wise error of Holm's adjustment when every group is the same (any adjusted p ≤ .05), and how
 * often the rank intervals of R contain every group's true rank (1 + the number of groups truly above it)
 * at once. Monte Carlo standard error of a 95% coverage with 1,000 studies: 0.7 percentage points.
 *
 * Schedules: "paired" rows give both groups the same positions and couple their choices at a position
 * through a shared uniform (used with probability .7, a strong dependence); the analysis
 * sees positions and pairs them. Sessions: a session is `decisions` choices sharing a propensity drawn
 * from a Beta with the cell's mean and intra-session correlation ρ; a spanning session makes `decisions`
 * in every framing of the game (a propensity of its own in each), drawn whole across them.
 *
 * Usage: npm run coverage:compare [-- --studies 1000 --replicates 1000 --only <substring>
 *   --tables differences,fwer,ranks]
 */
import { compareGroups } from "../../src/analysis/comparison/compare-groups.js";
import type { ComparisonRow } from "../../src/analysis/comparison/comparison-rows.js";
import type { PooledModel } from "../../src/analysis/comparison/pooled-measures.js";
import { equilibriumDeviation } from "../../src/analysis/equilibrium/deviation.js";
import { createBootstrapRng, type UniformSource } from "../../src/analysis/sampling/fast-rng.js";
import { fitPooledLambda } from "../../src/analysis/sensitivity/logit-response-mle.js";
import { payoffDifference } from "../../src/analysis/sensitivity/payoff-sensitivity.js";
import { jensenShannon } from "../../src/domain/divergence.js";
import { arg, ONLY, REPLICATES, STUDIES } from "./run-options.js";

interface Group {
  /** Probabilities of each action per framing, per game: p[game][framing][action]. */
  readonly p: readonly (readonly (readonly number[])[])[];
  /** Decisions per cell. */
  readonly n: number;
  readonly sessions?: { readonly decisions: number; readonly rho: number };
  /** Each session decides `decisions` times in every framing of a game (its own propensity in each). */
  readonly span?: boolean;
}

interface Row {
  readonly name: string;
  readonly groups: readonly Group[];
  /** Both (all) groups share schedule positions, coupled by one uniform each. */
  readonly paired?: boolean;
}

/** Which tables to run: differences, fwer, ranks (comma-separated; default all). */
const TABLES = arg("tables", "differences,fwer,ranks").split(",");

const binary = (...cooperate: number[]) => cooperate.map((c) => [c, 1 - c]);
const one = (...cooperate: number[]): Group["p"] => [binary(...cooperate)];
const equalGroups = (count: number, n: number): Group[] =>
  Array.from({ length: count }, () => ({ p: one(0.4, 0.6), n }));

const DIFFERENCE_ROWS: Row[] = [
  {
    name: "equal players, n 30",
    groups: [
      { p: one(0.4, 0.6), n: 30 },
      { p: one(0.4, 0.6), n: 30 },
    ],
  },
  {
    name: "equal players, n 3 (tiny cells)",
    groups: [
      { p: one(0.4, 0.6), n: 3 },
      { p: one(0.4, 0.6), n: 3 },
    ],
  },
  {
    name: "small difference, n 100",
    groups: [
      { p: one(0.45, 0.55), n: 100 },
      { p: one(0.35, 0.65), n: 100 },
    ],
  },
  {
    name: "large difference, n 30",
    groups: [
      { p: one(0.5, 0.5), n: 30 },
      { p: one(0.1, 0.9), n: 30 },
    ],
  },
  {
    name: "both at R = 1 (deterministic), n 30",
    groups: [
      { p: one(1, 1), n: 30 },
      { p: one(1, 1), n: 30 },
    ],
  },
  {
    name: "both at R = 1 (p .5 everywhere), n 30",
    groups: [
      { p: one(0.5, 0.5), n: 30 },
      { p: one(0.5, 0.5), n: 30 },
    ],
  },
  {
    name: "one at R = 1, one below, n 30",
    groups: [
      { p: one(0, 0), n: 30 },
      { p: one(0.2, 0.6), n: 30 },
    ],
  },
  {
    name: "near 1: p .97 vs .9/.97, n 100",
    groups: [
      { p: one(0.97, 0.97), n: 100 },
      { p: one(0.9, 0.97), n: 100 },
    ],
  },
  {
    name: "λ inside (0, 20): cooperation .2 vs .1, n 50",
    groups: [
      { p: one(0.2, 0.25), n: 50 },
      { p: one(0.1, 0.1), n: 50 },
    ],
  },
  {
    name: "λ inside, paired schedule: cooperation .2 vs .1, n 50",
    paired: true,
    groups: [
      { p: one(0.2, 0.25), n: 50 },
      { p: one(0.1, 0.1), n: 50 },
    ],
  },
  {
    name: "λ inside, sessions of 5, ρ .3: cooperation .2 vs .1, n 50",
    groups: [
      { p: one(0.2, 0.25), n: 50, sessions: { decisions: 5, rho: 0.3 } },
      { p: one(0.1, 0.1), n: 50, sessions: { decisions: 5, rho: 0.3 } },
    ],
  },
  {
    // The same true R (.7219), framings crowding both extremes against framings spread between them: R̂
    // of the crowded group is the maximum over 30 pairs near the largest JSD, the other's over one.
    name: "same R, crowded vs spread, 11 framings, n 30",
    groups: [
      { p: one(...Array(6).fill(0.2), ...Array(5).fill(0.8)), n: 30 },
      { p: one(...Array.from({ length: 11 }, (_, f) => 0.2 + 0.06 * f)), n: 30 },
    ],
  },
  {
    name: "same R, crowded vs spread, 11 framings, n 300",
    groups: [
      { p: one(...Array(6).fill(0.2), ...Array(5).fill(0.8)), n: 300 },
      { p: one(...Array.from({ length: 11 }, (_, f) => 0.2 + 0.06 * f)), n: 300 },
    ],
  },
  {
    name: "very unequal sizes, n 5 vs 300",
    groups: [
      { p: one(0.4, 0.6), n: 5 },
      { p: one(0.3, 0.7), n: 300 },
    ],
  },
  {
    name: "4 games, equal players, n 20",
    groups: [
      { p: [0.2, 0.4, 0.6, 0.8].map((c) => binary(c, c + 0.1)), n: 20 },
      { p: [0.2, 0.4, 0.6, 0.8].map((c) => binary(c, c + 0.1)), n: 20 },
    ],
  },
  {
    name: "3 actions, 3 framings, n 30",
    groups: [
      {
        p: [
          [
            [0.5, 0.3, 0.2],
            [0.4, 0.3, 0.3],
            [0.3, 0.4, 0.3],
          ],
        ],
        n: 30,
      },
      {
        p: [
          [
            [0.3, 0.3, 0.4],
            [0.3, 0.3, 0.4],
            [0.2, 0.4, 0.4],
          ],
        ],
        n: 30,
      },
    ],
  },
  {
    name: "6 actions, 2 framings, n 60",
    groups: [
      {
        p: [
          [
            [0.3, 0.2, 0.2, 0.1, 0.1, 0.1],
            [0.2, 0.2, 0.2, 0.2, 0.1, 0.1],
          ],
        ],
        n: 60,
      },
      {
        p: [
          [
            [0.2, 0.2, 0.2, 0.2, 0.1, 0.1],
            [0.2, 0.2, 0.2, 0.2, 0.1, 0.1],
          ],
        ],
        n: 60,
      },
    ],
  },
  {
    name: "paired schedule, small difference, n 50",
    paired: true,
    groups: [
      { p: one(0.45, 0.55), n: 50 },
      { p: one(0.35, 0.65), n: 50 },
    ],
  },
  {
    name: "paired schedule, equal players, n 30",
    paired: true,
    groups: [
      { p: one(0.4, 0.6), n: 30 },
      { p: one(0.4, 0.6), n: 30 },
    ],
  },
  {
    name: "sessions of 5, ρ .3, small difference, n 50",
    groups: [
      { p: one(0.45, 0.55), n: 50, sessions: { decisions: 5, rho: 0.3 } },
      { p: one(0.35, 0.65), n: 50, sessions: { decisions: 5, rho: 0.3 } },
    ],
  },
  {
    name: "sessions of 1–5 mixed: 5 vs single decisions",
    groups: [
      { p: one(0.4, 0.6), n: 50, sessions: { decisions: 5, rho: 0.3 } },
      { p: one(0.4, 0.6), n: 50 },
    ],
  },
  // Rows for the normal approximation of session sums (run once with SAME_GAME_CLUSTER_SUMS=exact and once
  // with =normal): few sessions, unequal sizes, a deterministic agent, and a cell at the auto threshold.
  {
    name: "few sessions: 4 sessions of 2, ρ .3, small difference, n 8",
    groups: [
      { p: one(0.45, 0.55), n: 8, sessions: { decisions: 2, rho: 0.3 } },
      { p: one(0.35, 0.65), n: 8, sessions: { decisions: 2, rho: 0.3 } },
    ],
  },
  {
    name: "unequal sizes: sessions of 5, ρ .3, n 10 vs 300",
    groups: [
      { p: one(0.4, 0.6), n: 10, sessions: { decisions: 5, rho: 0.3 } },
      { p: one(0.3, 0.7), n: 300, sessions: { decisions: 5, rho: 0.3 } },
    ],
  },
  {
    name: "deterministic: sessions of 5, all one action vs .3/.7, n 50",
    groups: [
      { p: one(1, 1), n: 50, sessions: { decisions: 5, rho: 0.3 } },
      { p: one(0.3, 0.7), n: 50, sessions: { decisions: 5, rho: 0.3 } },
    ],
  },
  // Few sessions per cell, and cells of one session (drawn by decision, named in a note).
  {
    name: "2 sessions of 10 per cell vs sessions of 2, ρ .3, equal players",
    groups: [
      { p: one(0.4, 0.6), n: 20, sessions: { decisions: 10, rho: 0.3 } },
      { p: one(0.4, 0.6), n: 20, sessions: { decisions: 2, rho: 0.3 } },
    ],
  },
  {
    name: "4 sessions spanning both framings (5 + 5), ρ .3, vs single decisions, equal players",
    groups: [
      { p: one(0.4, 0.6), n: 20, sessions: { decisions: 5, rho: 0.3 }, span: true },
      { p: one(0.4, 0.6), n: 20 },
    ],
  },
  {
    name: "one session per cell (n 20), ρ .3, vs 20 single decisions, equal players",
    groups: [
      { p: one(0.4, 0.6), n: 20, sessions: { decisions: 20, rho: 0.3 } },
      { p: one(0.4, 0.6), n: 20 },
    ],
  },
  {
    name: "one session spanning both framings (20 + 20) vs 10 spanning (2 + 2), ρ .3, equal players",
    groups: [
      { p: one(0.4, 0.6), n: 20, sessions: { decisions: 20, rho: 0.3 }, span: true },
      { p: one(0.4, 0.6), n: 20, sessions: { decisions: 2, rho: 0.3 }, span: true },
    ],
  },
  {
    name: "200 sessions of 2 per cell (the auto threshold), ρ .3, small difference, n 400",
    groups: [
      { p: one(0.45, 0.55), n: 400, sessions: { decisions: 2, rho: 0.3 } },
      { p: one(0.35, 0.65), n: 400, sessions: { decisions: 2, rho: 0.3 } },
    ],
  },
  // λ at its cap: the 5-decision side defects in every decision now and then (0.9^10 = 35% of studies at
  // cooperation .1), and its fit is then the cap 20.
  {
    name: "λ at the cap: equal players, cooperation .1, n 5 vs 300",
    groups: [
      { p: one(0.1, 0.1), n: 5 },
      { p: one(0.1, 0.1), n: 300 },
    ],
  },
  {
    name: "λ at the cap: equal players, cooperation .2/.3, n 5 vs 300",
    groups: [
      { p: one(0.2, 0.3), n: 5 },
      { p: one(0.2, 0.3), n: 300 },
    ],
  },
];

const FWER_ROWS: Row[] = [
  { name: "3 equal groups, n 30", groups: equalGroups(3, 30) },
  { name: "5 equal groups, n 30", groups: equalGroups(5, 30) },
  { name: "10 equal groups, n 30", groups: equalGroups(10, 30) },
  { name: "5 equal groups, paired, n 30", paired: true, groups: equalGroups(5, 30) },
];

const RANK_ROWS: Row[] = [
  { name: "5 equal groups, n 30", groups: equalGroups(5, 30) },
  {
    name: "5 spread groups, n 50",
    groups: [0.5, 0.45, 0.4, 0.3, 0.1].map((c) => ({ p: one(c, 1 - c), n: 50 })),
  },
  { name: "dominant + 4 equal, n 30", groups: [{ p: one(0, 0), n: 30 }, ...equalGroups(4, 30)] },
  {
    name: "10 spread groups, n 100",
    groups: Array.from({ length: 10 }, (_, i) => ({ p: one(0.5 - 0.04 * i, 0.5 + 0.04 * i), n: 100 })),
  },
  {
    name: "same R, crowded vs spread, 11 framings, n 300",
    groups: [
      { p: one(...Array(6).fill(0.2), ...Array(5).fill(0.8)), n: 300 },
      { p: one(...Array.from({ length: 11 }, (_, f) => 0.2 + 0.06 * f)), n: 300 },
    ],
  },
  // Rows where the ranks of λ and exploitability read narrower intervals than their pairs.
  {
    name: "λ at the cap: 2 equal groups, cooperation .1, n 5 vs 300",
    groups: [
      { p: one(0.1, 0.1), n: 5 },
      { p: one(0.1, 0.1), n: 300 },
    ],
  },
  {
    name: "5 paired groups: 3 equal + 2 differing, n 20",
    paired: true,
    groups: [0.4, 0.4, 0.4, 0.3, 0.1].map((c) => ({ p: one(c, 1 - c), n: 20 })),
  },
  {
    name: "2 equal groups: 2 sessions of 10 per cell vs sessions of 2, ρ .3",
    groups: [
      { p: one(0.4, 0.6), n: 20, sessions: { decisions: 10, rho: 0.3 } },
      { p: one(0.4, 0.6), n: 20, sessions: { decisions: 2, rho: 0.3 } },
    ],
  },
  {
    name: "2 equal groups: 4 sessions spanning both framings (5 + 5) vs single decisions",
    groups: [
      { p: one(0.4, 0.6), n: 20, sessions: { decisions: 5, rho: 0.3 }, span: true },
      { p: one(0.4, 0.6), n: 20 },
    ],
  },
];

function trueR(p: Group["p"]): number {
  let sum = 0;
  for (const game of p) {
    let max = 0;
    for (let f = 0; f < game.length; f++)
      for (let g = f + 1; g < game.length; g++)
        max = Math.max(max, jensenShannon(game[f] as number[], game[g] as number[]));
    sum += 1 - max / Math.LN2;
  }
  return sum / p.length;
}
const trueShift = (p: Group["p"]): number =>
  p.reduce((s, game) => s + ((game[1] as number[])[0] as number) - ((game[0] as number[])[0] as number), 0) /
  p.length;

function categorical(p: readonly number[], u: number): number {
  let acc = 0;
  for (let a = 0; a < p.length - 1; a++) {
    acc += p[a] as number;
    if (u < acc) return a;
  }
  return p.length - 1;
}

function gamma(shape: number, rng: UniformSource): number {
  // Marsaglia–Tsang, with the boost for shape < 1.
  if (shape < 1) return gamma(shape + 1, rng) * rng.next() ** (1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      const u1 = rng.next() || 1e-12;
      x = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * rng.next());
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = rng.next();
    if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v;
  }
}

/** A session's propensities: Dirichlet(p (1 − ρ)/ρ), whose pairwise correlation is ρ. */
function sessionPropensities(p: readonly number[], rho: number, rng: UniformSource): number[] {
  const scale = (1 - rho) / rho;
  const draws = p.map((x) => (x > 0 ? gamma(x * scale, rng) : 0));
  const total = draws.reduce((a, b) => a + b, 0);
  return draws.map((x) => x / total);
}

/** One record: every group's decisions as comparison rows. */
function simulate(row: Row, rng: UniformSource): ComparisonRow[] {
  const rows: ComparisonRow[] = [];
  const actionNames = (k: number) => Array.from({ length: k }, (_, a) => `a${a}`);
  // Paired rows share one uniform per (game, framing, position).
  const shared = new Map<string, number>();
  row.groups.forEach((group, g) => {
    group.p.forEach((game, gi) => {
      if (group.sessions && group.span) {
        const { decisions, rho } = group.sessions;
        for (let s = 0; s * decisions < group.n; s++) {
          game.forEach((p, f) => {
            const q = sessionPropensities(p, rho, rng);
            for (let d = 0; d < decisions && s * decisions + d < group.n; d++) {
              rows.push({
                group: `G${g}`,
                game: `g${gi}`,
                framing: `f${f}`,
                action: actionNames(p.length)[categorical(q, rng.next())] as string,
                count: 1,
                unit: `G${g}:g${gi}:${s}`,
                position: null,
              });
            }
          });
        }
        return;
      }
      game.forEach((p, f) => {
        const names = actionNames(p.length);
        const framing = `f${f}`;
        const gameId = `g${gi}`;
        if (group.sessions) {
          const { decisions, rho } = group.sessions;
          for (let s = 0; s * decisions < group.n; s++) {
            const q = sessionPropensities(p, rho, rng);
            for (let d = 0; d < decisions && s * decisions + d < group.n; d++) {
              rows.push({
                group: `G${g}`,
                game: gameId,
                framing,
                action: names[categorical(q, rng.next())] as string,
                count: 1,
                unit: `G${g}:${gameId}:${framing}:${s}`,
                position: null,
              });
            }
          }
          return;
        }
        const counts = new Array<number>(p.length).fill(0);
        for (let t = 0; t < group.n; t++) {
          const key = `${gi}:${f}:${t}`;
          let u = rng.next();
          if (row.paired) {
            // Coupled at a position: the same uniform as the other groups with probability .7.
            const common = shared.get(key) ?? u;
            shared.set(key, common);
            if (rng.next() < 0.7) u = common;
            rows.push({
              group: `G${g}`,
              game: gameId,
              framing,
              action: names[categorical(p, u)] as string,
              count: 1,
              unit: `G${g}:${key}`,
              position: `s#${key}`,
            });
          } else counts[categorical(p, u)]++;
        }
        if (!row.paired) {
          counts.forEach((count, a) => {
            if (count > 0)
              rows.push({
                group: `G${g}`,
                game: gameId,
                framing,
                action: names[a] as string,
                count,
                unit: null,
                position: null,
              });
          });
        }
      });
    });
  });
  return rows;
}

/**
 * Two-action games are a prisoner's dilemma for λ and exploitability (Δu_G = −0.3: defecting pays more
 * against a neutral belief; its one equilibrium is mutual defection, a1). Their truths: λ fitted to the
 * true rates (cooperative = n·p), exploitability the mean over cells at the true distributions.
 */
const PD = {
  actions: ["a0", "a1"],
  u1: [
    [3, 0],
    [5, 1],
  ],
  u2: [
    [3, 5],
    [0, 1],
  ],
};
const PD_MODEL: PooledModel = {
  deltaU: () => payoffDifference("g", { stage: PD, cooperativeAction: "a0" }).delta_u,
  cooperative: () => 0,
  exploitability: (_, d) =>
    equilibriumDeviation(PD, { a0: d[0] as number, a1: d[1] as number }).exploitability.normalized,
};
const twoActions = (row: Row) =>
  row.groups.every((g) => g.p.every((game) => game.every((c) => c.length === 2)));
function trueLambda(g: Group): number {
  const deltaU = PD_MODEL.deltaU("g") as number;
  return fitPooledLambda(
    g.p.flat().map((c) => ({ cooperative: g.n * (c[0] as number), n: g.n, deltaU })),
  ) as number;
}
function trueExploitability(g: Group): number {
  const cells = g.p.flat();
  return cells.reduce((s, c) => s + (PD_MODEL.exploitability("g", c) as number), 0) / cells.length;
}

/**
 * Every pair of every study of every row, checked for an interval and a p-value that disagree: an interval
 * leaving 0 out beside p > .05 (which compare rules out by construction), or one holding 0 beside p ≤ .05.
 */
const agreement = { pairs: 0, leavesZeroOutAboveAlpha: 0, holdsZeroAtOrBelowAlpha: 0 };

function analyse(row: Row, rows: ComparisonRow[], seed: number) {
  const k = (game: string) => row.groups[0]?.p[Number(game.slice(1))]?.[0]?.length ?? 2;
  const framings = Array.from({ length: row.groups[0]?.p[0]?.length ?? 2 }, (_, f) => `f${f}`);
  const result = compareGroups(rows, {
    framings,
    actionsOf: (game) => Array.from({ length: k(game) }, (_, a) => `a${a}`),
    cooperativeAction: () => "a0",
    pooled: twoActions(row) ? PD_MODEL : undefined,
    bootstrap: REPLICATES,
    seed,
  });
  for (const p of result.pairs) {
    const [lo, hi] = p.difference.ci;
    const holds = lo <= 0 && 0 <= hi;
    agreement.pairs++;
    if (!holds && p.p_value > 0.05) agreement.leavesZeroOutAboveAlpha++;
    if (holds && p.p_value <= 0.05) agreement.holdsZeroAtOrBelowAlpha++;
  }
  return result;
}

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
const started = Date.now();
const rng = createBootstrapRng("compare-coverage");
const selected = (r: Row) => ONLY === "" || r.name.includes(ONLY);

console.log(
  `compare coverage: ${STUDIES} studies per row, B = ${REPLICATES}, session sums ${process.env.SAME_GAME_CLUSTER_SUMS ?? "auto"}\n`,
);
console.log(
  "| row | true ΔR | cover ΔR | mean width ΔR | cover Δshift | cover Δλ (true Δλ) | cover Δexploitability (true) | paired |",
);
console.log("|---|---|---|---|---|---|---|---|");
for (const row of DIFFERENCE_ROWS.filter(selected).filter(() => TABLES.includes("differences"))) {
  const [a, b] = row.groups as [Group, Group];
  const dR = trueR(a.p) - trueR(b.p);
  const dShift = trueShift(a.p) - trueShift(b.p);
  let coverR = 0;
  let coverShift = 0;
  let shiftStudies = 0;
  let coverLambda = 0;
  let coverExploit = 0;
  const pooledRow = twoActions(row);
  const dLambda = pooledRow ? trueLambda(a) - trueLambda(b) : 0;
  const dExploit = pooledRow ? trueExploitability(a) - trueExploitability(b) : 0;
  let width = 0;
  let paired = 0;
  for (let s = 0; s < STUDIES; s++) {
    const result = analyse(row, simulate(row, rng), s + 1);
    const r = result.pairs.find((p) => p.measure === "R" && p.a === "G0" && p.b === "G1");
    const sh = result.pairs.find((p) => p.measure === "shift" && p.a === "G0" && p.b === "G1");
    if (!r) throw new Error(`row ${row.name}: no R pair`);
    const [lo, hi] = r.difference.ci;
    if (!Number.isFinite(lo) || !Number.isFinite(hi) || !(hi > lo))
      throw new Error(`row ${row.name}: interval ${lo}, ${hi}`);
    if (lo <= dR + 1e-12 && dR - 1e-12 <= hi) coverR++;
    width += hi - lo;
    if (r.paired) paired++;
    const covers = (measure: string, truth: number) => {
      const p = result.pairs.find((x) => x.measure === measure && x.a === "G0" && x.b === "G1");
      return p !== undefined && p.difference.ci[0] <= truth + 1e-9 && truth - 1e-9 <= p.difference.ci[1];
    };
    if (pooledRow && covers("lambda", dLambda)) coverLambda++;
    if (pooledRow && covers("exploitability", dExploit)) coverExploit++;
    if (sh && (a.p[0]?.[0]?.length ?? 0) === 2) {
      shiftStudies++;
      if (sh.difference.ci[0] <= dShift + 1e-12 && dShift - 1e-12 <= sh.difference.ci[1]) coverShift++;
    }
  }
  console.log(
    `| ${row.name} | ${dR.toFixed(3)} | ${pct(coverR / STUDIES)} | ${(width / STUDIES).toFixed(3)} | ${shiftStudies ? pct(coverShift / shiftStudies) : "—"} | ${pooledRow ? `${pct(coverLambda / STUDIES)} (${dLambda.toFixed(2)})` : "—"} | ${pooledRow ? `${pct(coverExploit / STUDIES)} (${dExploit.toFixed(3)})` : "—"} | ${pct(paired / STUDIES)} |`,
  );
}

console.log(
  "\n| all groups equal | family | FWER (any Holm-adjusted p ≤ .05), R | FWER, shift | unadjusted: any p ≤ .05, R | one pair's shift p ≤ .05 | one pair's shift p ≤ .005 | FWER, λ | FWER, exploitability |",
);
console.log("|---|---|---|---|---|---|---|---|---|");
for (const row of FWER_ROWS.filter(selected).filter(() => TABLES.includes("fwer"))) {
  let anyR = 0;
  let anyShift = 0;
  let anyRaw = 0;
  let family = 0;
  let oneShift05 = 0;
  let oneShift005 = 0;
  let anyLambda = 0;
  let anyExploit = 0;
  for (let s = 0; s < STUDIES; s++) {
    const result = analyse(row, simulate(row, rng), s + 1);
    const rPairs = result.pairs.filter((p) => p.measure === "R");
    family = rPairs.length;
    if (rPairs.some((p) => p.p_adjusted <= 0.05)) anyR++;
    if (rPairs.some((p) => p.p_value <= 0.05)) anyRaw++;
    if (result.pairs.some((p) => p.measure === "shift" && p.p_adjusted <= 0.05)) anyShift++;
    if (result.pairs.some((p) => p.measure === "lambda" && p.p_adjusted <= 0.05)) anyLambda++;
    if (result.pairs.some((p) => p.measure === "exploitability" && p.p_adjusted <= 0.05)) anyExploit++;
    const first = result.pairs.find((p) => p.measure === "shift");
    if (first && first.p_value <= 0.05) oneShift05++;
    if (first && first.p_value <= 0.005) oneShift005++;
  }
  console.log(
    `| ${row.name} | ${family} pairs | ${pct(anyR / STUDIES)} | ${pct(anyShift / STUDIES)} | ${pct(anyRaw / STUDIES)} | ${pct(oneShift05 / STUDIES)} | ${pct(oneShift005 / STUDIES)} | ${pct(anyLambda / STUDIES)} | ${pct(anyExploit / STUDIES)} |`,
  );
}

console.log(
  "\n| row | all true ranks of R inside their rank intervals | mean rank-interval length | one tier | all true ranks of λ inside | all true ranks of exploitability inside |",
);
console.log("|---|---|---|---|---|---|");
for (const row of RANK_ROWS.filter(selected).filter(() => TABLES.includes("ranks"))) {
  const truth = row.groups.map((g) => trueR(g.p));
  const trueRank = truth.map((t) => 1 + truth.filter((u) => u > t + 1e-12).length);
  let covered = 0;
  let length = 0;
  let oneTier = 0;
  let lambdaCovered = 0;
  let exploitCovered = 0;
  // Rank 1 is the least exploitable; groups tied in truth share the best rank of their tie.
  const exploitTruth = twoActions(row) ? row.groups.map(trueExploitability) : [];
  const exploitRank = exploitTruth.map((t) => 1 + exploitTruth.filter((u) => u < t - 1e-9).length);
  for (let s = 0; s < STUDIES; s++) {
    const result = analyse(row, simulate(row, rng), s + 1);
    const all = result.ranks
      .filter((r) => r.measure === "R")
      .every((r) => {
        const g = Number(r.group.slice(1));
        return r.rank.ci[0] <= (trueRank[g] as number) && (trueRank[g] as number) <= r.rank.ci[1];
      });
    if (all) covered++;
    const rRanks = result.ranks.filter((r) => r.measure === "R");
    length += rRanks.reduce((sum, r) => sum + r.rank.ci[1] - r.rank.ci[0] + 1, 0) / rRanks.length;
    if (rRanks.every((r) => r.tied_group === 1)) oneTier++;
    const lambdaTruth = row.groups.map(trueLambda);
    const lambdaRank = lambdaTruth.map((t) => 1 + lambdaTruth.filter((u) => u > t + 1e-9).length);
    if (
      result.ranks
        .filter((r) => r.measure === "lambda")
        .every((r) => {
          const g = Number(r.group.slice(1));
          return r.rank.ci[0] <= (lambdaRank[g] as number) && (lambdaRank[g] as number) <= r.rank.ci[1];
        })
    )
      lambdaCovered++;
    if (
      result.ranks
        .filter((r) => r.measure === "exploitability")
        .every((r) => {
          const g = Number(r.group.slice(1));
          return r.rank.ci[0] <= (exploitRank[g] as number) && (exploitRank[g] as number) <= r.rank.ci[1];
        })
    )
      exploitCovered++;
  }
  console.log(
    `| ${row.name} | ${pct(covered / STUDIES)} | ${(length / STUDIES).toFixed(2)} | ${pct(oneTier / STUDIES)} | ${pct(lambdaCovered / STUDIES)} | ${pct(exploitCovered / STUDIES)} |`,
  );
}
console.log(
  `\nInterval and p-value: ${agreement.pairs} pairs; leaving 0 out with p > .05: ${agreement.leavesZeroOutAboveAlpha}; holding 0 with p ≤ .05: ${agreement.holdsZeroAtOrBelowAlpha}`,
);
console.log(`\n${((Date.now() - started) / 1000).toFixed(0)} s`);
