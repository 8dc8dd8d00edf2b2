/**
 * `npm run coverage`: the coverage grid, a benchmark and not a test — it prints a table.
 *
 * Each row simulates `STUDIES` records from known framing distributions, analyses each with
 * `robustnessAnalysis` (B = `REPLICATES` bootstrap replicates and as many permutations), and reports how
 * often the 95% interval of R covers the true R, how often the shift interval covers the true shift, the
 * root mean squared error of the plug-in and the bias-corrected R, and how often the permutation test
 * rejects invariance at 5%, beside Pearson's χ² test of homogeneity on the same records' pooled counts
 * (which ignores sessions). Monte Carlo standard error of a 95% coverage with 1,000 studies: 0.7
 * percentage points; of a 5% rejection rate: 0.7 points.
 *
 * Sessions nested in cells: a session is `decisions` choices of one player that share a session-level
 * propensity p_s ~ Beta with mean p and intra-session correlation ρ (a beta-binomial cluster); a framing
 * may have its own number of sessions (so its own session length). Sessions that span cells: one
 * propensity per session for the whole record (see simulateSpanning); with ρ = 0 every decision is
 * independent, as a live agent's sessions of one decision per cell. The true R and shift are those of the
 * marginal distributions.
 *
 * Usage: npm run coverage [-- --studies 1000 --replicates 1000 --only <substring>]
 */
import type { CountCell } from "../../src/analysis/count-cells.js";
import { robustnessAnalysis } from "../../src/analysis/robustness/robustness.js";
import { createBootstrapRng, type UniformSource } from "../../src/analysis/sampling/fast-rng.js";
import { jensenShannon } from "../../src/domain/divergence.js";
import { upperGamma } from "./chi-square.js";
import { ONLY, REPLICATES, STUDIES } from "./run-options.js";

/** A framing's distribution: P(cooperate) of a two-action game, or the probability of every action. */
type Framing = number | readonly number[];

interface Case {
  readonly name: string;
  /** Per game, the distribution of every framing (games × framings). */
  readonly p: readonly (readonly Framing[])[];
  /** Decisions per cell, or per framing. */
  readonly n: number | readonly number[];
  /**
   * Sessions per cell (or per framing) and intra-session correlation; `span`: one session decides in every
   * cell. Absent = independent decisions without sessions.
   */
  readonly sessions?: {
    readonly perCell: number | readonly number[];
    readonly rho: number;
    readonly span?: boolean;
    /** With `span`: of the `perCell` sessions of a cell, how many decide in that framing only. */
    readonly inOneFraming?: number;
    /**
     * Each session decides in one framing but in every game (`perCell` per framing: its sessions there,
     * so framings may have sessions of different lengths), with one propensity for all its games.
     */
    readonly acrossGames?: boolean;
  };
}

const same = (p: Framing, framings: number): Framing[] => Array.from({ length: framings }, () => p);
const fourGames = (p: readonly Framing[]): Framing[][] => [0, 1, 2, 3].map(() => [...p]);
const CASES: Case[] = [
  { name: "identical, 2 framings, p .5, n 20", p: [same(0.5, 2)], n: 20 },
  { name: "identical, 2 framings, p .5, n 300", p: [same(0.5, 2)], n: 300 },
  { name: "identical, 2 framings, p .5, n 1000", p: [same(0.5, 2)], n: 1000 },
  { name: "identical, 11 framings, p .5, n 30", p: [same(0.5, 11)], n: 30 },
  { name: "identical, 11 framings, p .5, n 300", p: [same(0.5, 11)], n: 300 },
  { name: "identical, 2 framings, p .02, n 30", p: [same(0.02, 2)], n: 30 },
  { name: "identical, 2 framings, p .98, n 300", p: [same(0.98, 2)], n: 300 },
  {
    name: "identical, 4 games (player and pool), n 300",
    p: [0.2, 0.4, 0.6, 0.8].map((p) => same(p, 2)),
    n: 300,
  },
  { name: "GPT-4-like .01 vs .987, n 30", p: [[0.01, 0.987]], n: 30 },
  { name: "GPT-4-like .01 vs .987, n 300", p: [[0.01, 0.987]], n: 300 },
  { name: ".3 vs .5, n 100", p: [[0.3, 0.5]], n: 100 },
  { name: ".5 vs .6, n 300", p: [[0.5, 0.6]], n: 300 },
  { name: ".5 vs .55, n 30 (near R = 1)", p: [[0.5, 0.55]], n: 30 },
  { name: ".93 vs .97, n 50 (near R = 1)", p: [[0.93, 0.97]], n: 50 },
  { name: ".98 vs 1.0, n 300", p: [[0.98, 1]], n: 300 },
  { name: ".02 vs .10, n 30", p: [[0.02, 0.1]], n: 30 },
  { name: "11 framings .3 … .7, n 100", p: [Array.from({ length: 11 }, (_, f) => 0.3 + 0.04 * f)], n: 100 },
  // Cells near rate 1 with few decisions: where the lower end once came out 0 (a lower rate searched where
  // no partner below 1 exists).
  { name: "11 framings .9 … 1.0, n 10", p: [Array.from({ length: 11 }, (_, f) => 0.9 + 0.01 * f)], n: 10 },
  { name: "11 framings .9 … 1.0, n 100", p: [Array.from({ length: 11 }, (_, f) => 0.9 + 0.01 * f)], n: 100 },
  // Framings that crowd the extremes (a player whose framings fall in two groups, or all but one alike):
  // R̂ is the maximum over many pairs near the largest JSD, so it is biased down however large n is.
  { name: "two groups, 11 framings: 6 at .2, 5 at .8, n 30", p: [[...same(0.2, 6), ...same(0.8, 5)]], n: 30 },
  {
    name: "two groups, 11 framings: 6 at .2, 5 at .8, n 300",
    p: [[...same(0.2, 6), ...same(0.8, 5)]],
    n: 300,
  },
  { name: "two groups, 4 framings: .4 .4 .6 .6, n 100", p: [[0.4, 0.4, 0.6, 0.6]], n: 100 },
  { name: "one apart, 11 framings: one at .9, ten at .2, n 30", p: [[0.9, ...same(0.2, 10)]], n: 30 },
  // Deterministic agents played live: every session decides once in every cell of 4 games.
  {
    name: "live deterministic 1.0 vs 1.0, 4 games, 4 sessions × 1 per cell",
    p: fourGames([1, 1]),
    n: 4,
    sessions: { perCell: 4, rho: 0, span: true },
  },
  {
    name: "live deterministic 1.0 vs 1.0, 4 games, 20 sessions × 1 per cell",
    p: fourGames([1, 1]),
    n: 20,
    sessions: { perCell: 20, rho: 0, span: true },
  },
  {
    name: "live .99 vs 1.0, 4 games, 20 sessions × 1 per cell",
    p: fourGames([0.99, 1]),
    n: 20,
    sessions: { perCell: 20, rho: 0, span: true },
  },
  {
    name: "live .99 vs 1.0, 4 games, 100 sessions × 1 per cell",
    p: fourGames([0.99, 1]),
    n: 100,
    sessions: { perCell: 100, rho: 0, span: true },
  },
  // Unequal framing sizes: the small framing (n 20) true in the middle, at an extreme, and all alike.
  { name: "unequal n 20/300/80, identical p .5", p: [same(0.5, 3)], n: [20, 300, 80] },
  { name: "unequal n 20/300/80, small in the middle: .45/.3/.6", p: [[0.45, 0.3, 0.6]], n: [20, 300, 80] },
  { name: "unequal n 20/300/80, small at an extreme: .7/.3/.6", p: [[0.7, 0.3, 0.6]], n: [20, 300, 80] },
  {
    name: "sessions: identical, 30 × 10, ρ .3",
    p: [same(0.5, 2)],
    n: 300,
    sessions: { perCell: 30, rho: 0.3 },
  },
  { name: "sessions: .3 vs .5, 30 × 10, ρ .3", p: [[0.3, 0.5]], n: 300, sessions: { perCell: 30, rho: 0.3 } },
  // Each framing its own session design: 300 sessions of one decision against 10 of 30.
  {
    name: "sessions per framing 300 × 1 vs 10 × 30, identical .5, ρ .3",
    p: [same(0.5, 2)],
    n: 300,
    sessions: { perCell: [300, 10], rho: 0.3 },
  },
  {
    name: "sessions per framing 300 × 1 vs 10 × 30, .4 vs .5, ρ .3",
    p: [[0.4, 0.5]],
    n: 300,
    sessions: { perCell: [300, 10], rho: 0.3 },
  },
  {
    name: "sessions per framing 60 × 5 vs 10 × 30, identical .5, ρ .3",
    p: [same(0.5, 2)],
    n: 300,
    sessions: { perCell: [60, 10], rho: 0.3 },
  },
  {
    name: "sessions per framing 60 × 5 vs 10 × 30, .4 vs .5, ρ .3",
    p: [[0.4, 0.5]],
    n: 300,
    sessions: { perCell: [60, 10], rho: 0.3 },
  },
  {
    name: "sessions span framings and 4 games: identical .5, 60 × 5, ρ .3",
    p: fourGames([0.5, 0.5]),
    n: 300,
    sessions: { perCell: 60, rho: 0.3, span: true },
  },
  {
    name: "sessions span framings and 4 games: .3 vs .5, 60 × 5, ρ .3",
    p: fourGames([0.3, 0.5]),
    n: 300,
    sessions: { perCell: 60, rho: 0.3, span: true },
  },
  {
    name: "sessions span framings and 4 games: mild .45 vs .5, 60 × 5, ρ .3",
    p: fourGames([0.45, 0.5]),
    n: 300,
    sessions: { perCell: 60, rho: 0.3, span: true },
  },
  // A record mixing both kinds: 30 sessions decide in both framings, 30 more per framing in that one only.
  {
    name: "sessions span framings, half in one framing only, 4 games: identical .5, 60 × 5, ρ .3",
    p: fourGames([0.5, 0.5]),
    n: 300,
    sessions: { perCell: 60, rho: 0.3, span: true, inOneFraming: 30 },
  },
  {
    name: "sessions span framings, half in one framing only, 4 games: mild .45 vs .5, 60 × 5, ρ .3",
    p: fourGames([0.45, 0.5]),
    n: 300,
    sessions: { perCell: 60, rho: 0.3, span: true, inOneFraming: 30 },
  },
  {
    name: "sessions span framings and 4 games, one decision per cell: .3 vs .5, 300 × 1, ρ .3",
    p: fourGames([0.3, 0.5]),
    n: 300,
    sessions: { perCell: 300, rho: 0.3, span: true },
  },
  // Sessions of one decision in one framing, of 20 in the other: in one game, and across 4 games (each
  // session decides in its framing in every game, with one propensity for all of them).
  {
    name: "sessions per framing 300 × 1 vs 15 × 20, identical .5, ρ .3",
    p: [same(0.5, 2)],
    n: 300,
    sessions: { perCell: [300, 15], rho: 0.3 },
  },
  {
    name: "sessions per framing 300 × 1 vs 15 × 20, .4 vs .5, ρ .3",
    p: [[0.4, 0.5]],
    n: 300,
    sessions: { perCell: [300, 15], rho: 0.3 },
  },
  {
    name: "sessions per framing across 4 games 300 × 1 vs 15 × 20, identical .5, ρ .3",
    p: fourGames([0.5, 0.5]),
    n: 300,
    sessions: { perCell: [300, 15], rho: 0.3, acrossGames: true },
  },
  {
    name: "sessions per framing across 4 games 300 × 1 vs 15 × 20, mild .45 vs .5, ρ .3",
    p: fourGames([0.45, 0.5]),
    n: 300,
    sessions: { perCell: [300, 15], rho: 0.3, acrossGames: true },
  },
  // Games with more actions.
  { name: "3 actions, identical (.2, .3, .5), n 100", p: [same([0.2, 0.3, 0.5], 2)], n: 100 },
  {
    name: "3 actions, (.2, .3, .5) vs (.3, .3, .4), n 100",
    p: [
      [
        [0.2, 0.3, 0.5],
        [0.3, 0.3, 0.4],
      ],
    ],
    n: 100,
  },
  { name: "4 actions, identical uniform, n 100", p: [same([0.25, 0.25, 0.25, 0.25], 3)], n: 100 },
  {
    name: "4 actions, (.1, .2, .3, .4) vs (.25, .25, .25, .25), n 100",
    p: [
      [
        [0.1, 0.2, 0.3, 0.4],
        [0.25, 0.25, 0.25, 0.25],
      ],
    ],
    n: 100,
  },
  {
    name: "3 actions, two groups of 3 framings: (.6, .3, .1) and (.1, .3, .6), n 50",
    p: [[...same([0.6, 0.3, 0.1], 3), ...same([0.1, 0.3, 0.6], 3)]],
    n: 50,
  },
  {
    name: "3 actions, two groups of 3 framings: (.6, .3, .1) and (.1, .3, .6), n 300",
    p: [[...same([0.6, 0.3, 0.1], 3), ...same([0.1, 0.3, 0.6], 3)]],
    n: 300,
  },
  // More actions at the edges: deterministic agents, cells of 1–5 decisions, very unequal sizes, 6 actions.
  { name: "3 actions, deterministic (1, 0, 0) in both framings, n 20", p: [same([1, 0, 0], 2)], n: 20 },
  {
    name: "3 actions, (1, 0, 0) vs (.9, .05, .05), n 50",
    p: [
      [
        [1, 0, 0],
        [0.9, 0.05, 0.05],
      ],
    ],
    n: 50,
  },
  { name: "3 actions, identical (.2, .3, .5), 3 framings, n 3", p: [same([0.2, 0.3, 0.5], 3)], n: 3 },
  {
    name: "3 actions, (.6, .3, .1) vs (.2, .3, .5), n 5",
    p: [
      [
        [0.6, 0.3, 0.1],
        [0.2, 0.3, 0.5],
      ],
    ],
    n: 5,
  },
  {
    name: "3 actions, (.2, .3, .5) vs (.3, .3, .4), n 20/300",
    p: [
      [
        [0.2, 0.3, 0.5],
        [0.3, 0.3, 0.4],
      ],
    ],
    n: [20, 300],
  },
  {
    name: "4 actions, (.1, .2, .3, .4) vs (.25, .25, .25, .25), n 300",
    p: [
      [
        [0.1, 0.2, 0.3, 0.4],
        [0.25, 0.25, 0.25, 0.25],
      ],
    ],
    n: 300,
  },
  {
    name: "4 actions, (.1, .2, .3, .4) vs (.25, .25, .25, .25) vs (.4, .3, .2, .1), n 30/100/300",
    p: [
      [
        [0.1, 0.2, 0.3, 0.4],
        [0.25, 0.25, 0.25, 0.25],
        [0.4, 0.3, 0.2, 0.1],
      ],
    ],
    n: [30, 100, 300],
  },
  {
    name: "4 actions, (.1, .2, .3, .4) vs (.25, .25, .25, .25), sessions 20 × 5, ρ .3",
    p: [
      [
        [0.1, 0.2, 0.3, 0.4],
        [0.25, 0.25, 0.25, 0.25],
      ],
    ],
    n: 100,
    sessions: { perCell: 20, rho: 0.3 },
  },
  {
    name: "6 actions, identical uniform, n 60",
    p: [
      same(
        [1, 1, 1, 1, 1, 1].map((x) => x / 6),
        2,
      ),
    ],
    n: 60,
  },
  {
    name: "6 actions, (.05, .1, .15, .2, .2, .3) vs uniform, n 100",
    p: [[[0.05, 0.1, 0.15, 0.2, 0.2, 0.3], [1, 1, 1, 1, 1, 1].map((x) => x / 6)]],
    n: 100,
  },
  {
    name: "6 actions, (.05, .1, .15, .2, .2, .3) vs uniform, n 5",
    p: [[[0.05, 0.1, 0.15, 0.2, 0.2, 0.3], [1, 1, 1, 1, 1, 1].map((x) => x / 6)]],
    n: 5,
  },
];

const ACTIONS = ["cooperate", "defect", "a3", "a4", "a5", "a6"];
const distribution = (p: Framing): readonly number[] => (typeof p === "number" ? [p, 1 - p] : p);
const sizeOf = (c: Case, f: number): number => (typeof c.n === "number" ? c.n : (c.n[f] as number));
const sessionsOf = (perCell: number | readonly number[], f: number): number =>
  typeof perCell === "number" ? perCell : (perCell[f] as number);

function trueR(framings: readonly Framing[]): number {
  let max = 0;
  for (const a of framings)
    for (const b of framings) max = Math.max(max, jensenShannon(distribution(a), distribution(b)));
  return 1 - max / Math.LN2;
}

/** One categorical draw of each of `n` decisions, added into counts. */
function categorical(n: number, p: readonly number[], rng: UniformSource): number[] {
  const counts = p.map(() => 0);
  for (let i = 0; i < n; i++) {
    let u = rng.next();
    let a = 0;
    while (a < p.length - 1 && u >= (p[a] as number)) {
      u -= p[a] as number;
      a++;
    }
    counts[a] = (counts[a] as number) + 1;
  }
  return counts;
}

/** Gamma(shape, 1) by Marsaglia–Tsang (with the shape < 1 boost) — for the Dirichlet propensities. */
function gamma(shape: number, rng: UniformSource): number {
  if (shape < 1) return gamma(shape + 1, rng) * rng.next() ** (1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      // Box–Muller normal.
      x = Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = rng.next();
    if (u < 1 - 0.0331 * x ** 4 || Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
  }
}

/** A session's propensities: Dirichlet with mean p and intra-session correlation ρ (p itself at ρ = 0). */
function propensity(p: readonly number[], rho: number, rng: UniformSource): readonly number[] {
  if (rho === 0 || p.some((q) => q <= 0 || q >= 1)) return p;
  const concentration = (1 - rho) / rho;
  const g = p.map((q) => gamma(q * concentration, rng));
  const sum = g.reduce((s, v) => s + v, 0);
  return g.map((v) => v / sum);
}

const toCounts = (counts: readonly number[]): Record<string, number> =>
  Object.fromEntries(counts.map((x, a) => [ACTIONS[a] as string, x]).filter(([, x]) => (x as number) > 0));

/**
 * Sessions that span cells: session s has one propensity q_s ~ Beta(mean ½, ρ) for the whole record and
 * chooses cooperate with probability min(1, 2·p_f·q_s) in every framing f (so the marginal rate is p_f
 * where 2·p_f ≤ 1; with ρ = 0, q_s = ½ and every decision has rate p_f), making `n / perCell` decisions in
 * every cell; its clusters carry ids, so the joint cluster bootstrap applies.
 */
function simulateSpanning(c: Case, rng: UniformSource): CountCell[] {
  const {
    perCell,
    rho,
    inOneFraming = 0,
  } = c.sessions as { perCell: number; rho: number; inOneFraming?: number };
  const size = (c.n as number) / perCell;
  const framingCount = (c.p[0] as readonly Framing[]).length;
  const spanning = perCell - inOneFraming;
  // Sessions 0 … spanning − 1 decide in every framing; then inOneFraming sessions per framing, in it only.
  const sessions = spanning + framingCount * inOneFraming;
  const q = Array.from({ length: sessions }, () => (rho === 0 ? 0.5 : propensity([0.5, 0.5], rho, rng)[0]));
  const decidesIn = (s: number, f: number): boolean =>
    s < spanning || Math.floor((s - spanning) / inOneFraming) === f;
  return c.p.flatMap((framings, g) =>
    framings.map((p, f): CountCell => {
      const ids = q.map((_, s) => s).filter((s) => decidesIn(s, f));
      const clusters = ids.map((s) => {
        const rate = Math.min(1, 2 * (p as number) * (q[s] as number));
        const x = categorical(size, [rate, 1 - rate], rng)[0] as number;
        return toCounts([x, size - x]);
      });
      const x = clusters.reduce((sum, k) => sum + (k.cooperate ?? 0), 0);
      return {
        player: "m",
        game: `g${g}`,
        framing: `f${String(f).padStart(2, "0")}`,
        counts: toCounts([x, (c.n as number) - x]),
        clusters,
        cluster_ids: ids.map((s) => `s${s}`),
      };
    }),
  );
}

/**
 * Sessions that decide in one framing but in every game: framing f has `perCell[f]` sessions of
 * `n / perCell[f]` decisions per game, session s one propensity q_s ~ Beta(mean ½, ρ) for all its games,
 * choosing cooperate at min(1, 2·p_f·q_s) as in simulateSpanning; ids shared across the games.
 */
function simulateAcrossGames(c: Case, rng: UniformSource): CountCell[] {
  const { perCell, rho } = c.sessions as { perCell: readonly number[]; rho: number };
  const framingCount = (c.p[0] as readonly Framing[]).length;
  const q = Array.from({ length: framingCount }, (_, f) =>
    Array.from({ length: perCell[f] as number }, () =>
      rho === 0 ? 0.5 : propensity([0.5, 0.5], rho, rng)[0],
    ),
  );
  return c.p.flatMap((framings, g) =>
    framings.map((p, f): CountCell => {
      const sessions = q[f] as number[];
      const size = (c.n as number) / sessions.length;
      const clusters = sessions.map((qs) => {
        const rate = Math.min(1, 2 * (p as number) * (qs as number));
        const x = categorical(size, [rate, 1 - rate], rng)[0] as number;
        return toCounts([x, size - x]);
      });
      const x = clusters.reduce((sum, k) => sum + (k.cooperate ?? 0), 0);
      return {
        player: "m",
        game: `g${g}`,
        framing: `f${String(f).padStart(2, "0")}`,
        counts: toCounts([x, (c.n as number) - x]),
        clusters,
        cluster_ids: sessions.map((_, s) => `f${f}-s${s}`),
      };
    }),
  );
}

function simulate(c: Case, rng: UniformSource): CountCell[] {
  if (c.sessions?.span) return simulateSpanning(c, rng);
  if (c.sessions?.acrossGames) return simulateAcrossGames(c, rng);
  return c.p.flatMap((framings, g) =>
    framings.map((framing, f): CountCell => {
      const p = distribution(framing);
      const cell = { player: "m", game: `g${g}`, framing: `f${String(f).padStart(2, "0")}` };
      const n = sizeOf(c, f);
      if (c.sessions === undefined) return { ...cell, counts: toCounts(categorical(n, p, rng)) };
      const perCell = sessionsOf(c.sessions.perCell, f);
      const size = n / perCell;
      const clusters = Array.from({ length: perCell }, () =>
        categorical(size, propensity(p, (c.sessions as { rho: number }).rho, rng), rng),
      );
      const counts = p.map((_, a) => clusters.reduce((s, k) => s + (k[a] as number), 0));
      return { ...cell, counts: toCounts(counts), clusters: clusters.map(toCounts) };
    }),
  );
}

/** Pearson's χ² test of homogeneity of the first game's framings (actions never chosen dropped). */
function pearsonP(cells: readonly CountCell[]): number {
  const first = cells.filter((c) => c.game === "g0");
  const actions = [...new Set(first.flatMap((c) => Object.keys(c.counts)))];
  const n = first.map((c) => Object.values(c.counts).reduce((s, x) => s + x, 0));
  const total = n.reduce((s, x) => s + x, 0);
  let chi2 = 0;
  for (const a of actions) {
    const column = first.reduce((s, c) => s + (c.counts[a] ?? 0), 0);
    first.forEach((c, f) => {
      const expected = ((n[f] as number) * column) / total;
      chi2 += ((c.counts[a] ?? 0) - expected) ** 2 / expected;
    });
  }
  const df = (first.length - 1) * (actions.length - 1);
  return df === 0 ? 1 : upperGamma(df / 2, chi2 / 2);
}

/** Whether framing f00's first-action rate lies strictly between the lowest and highest of the others. */
function observedBetween(distributions: Record<string, { distribution: Record<string, number> }>): boolean {
  const rates = Object.entries(distributions)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([, d]) => d.distribution.cooperate ?? 0);
  const others = rates.slice(1);
  const own = rates[0] as number;
  return own > Math.min(...others) && own < Math.max(...others);
}

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
const rows: string[] = [
  "| case | true R | R coverage | R misses (truth below / above) | player R cov. | R cov. when framing 0 is observed between the others | shift coverage | RMSE R̂ | RMSE R bias-corr. | rejects invariance | Pearson χ² rejects |",
  "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
];
const started = Date.now();
for (const c of CASES.filter((k) => k.name.includes(ONLY))) {
  const rng = createBootstrapRng(`coverage:${c.name}`);
  const truths = c.p.map(trueR);
  const playerTruth = truths.reduce((s, r) => s + r, 0) / truths.length;
  const first = c.p[0] as readonly Framing[];
  const twoActions = typeof first[0] === "number";
  const shiftTruth = twoActions ? (first[1] as number) - (first[0] as number) : Number.NaN;
  const cooperativeAction = twoActions ? "cooperate" : null;
  let covered = 0;
  let missBelow = 0;
  let missAbove = 0;
  let playerCovered = 0;
  let shiftCovered = 0;
  let squared = 0;
  let correctedSquared = 0;
  let rejected = 0;
  let pearsonRejected = 0;
  let middle = 0;
  let middleCovered = 0;
  for (let s = 0; s < STUDIES; s++) {
    const cells = simulate(c, rng);
    const result = robustnessAnalysis(cells, {
      cooperativeAction: Object.fromEntries(c.p.map((_, g) => [`g${g}`, cooperativeAction])),
      // The game's actions, as the catalog gives them: a cell that chose one action lists only that one.
      actions: Object.fromEntries(
        c.p.map((framings, g) => [`g${g}`, ACTIONS.slice(0, distribution(framings[0] as Framing).length)]),
      ),
      bootstrap: REPLICATES,
      seed: s + 1,
    });
    const game = result.games[0];
    const player = result.players[0];
    if (game === undefined || player === undefined) throw new Error("no game analysed");
    const inside = (x: number, [lo, hi]: readonly [number, number]): boolean =>
      lo <= x + 1e-12 && x <= hi + 1e-12;
    const truth = truths[0] as number;
    if (inside(truth, game.R.ci)) covered++;
    else if (truth < game.R.ci[0]) missBelow++;
    else missAbove++;
    if (inside(playerTruth, player.R.ci)) playerCovered++;
    if (observedBetween(game.distributions)) {
      middle++;
      if (inside(truth, game.R.ci)) middleCovered++;
    }
    if (game.shift && inside(shiftTruth, game.shift.ci)) shiftCovered++;
    squared += (game.R.estimate - truth) ** 2;
    correctedSquared += (game.R_bias_corrected - truth) ** 2;
    if (game.invariance.p_value <= 0.05) rejected++;
    if (pearsonP(cells) <= 0.05) pearsonRejected++;
  }
  const row = [
    c.name,
    (truths[0] as number).toFixed(4),
    pct(covered / STUDIES),
    `${pct(missBelow / STUDIES)} / ${pct(missAbove / STUDIES)}`,
    c.p.length > 1 ? pct(playerCovered / STUDIES) : "—",
    twoActions && middle > 0 && typeof c.n !== "number" ? `${pct(middleCovered / middle)} of ${middle}` : "—",
    twoActions ? pct(shiftCovered / STUDIES) : "—",
    Math.sqrt(squared / STUDIES).toFixed(4),
    Math.sqrt(correctedSquared / STUDIES).toFixed(4),
    pct(rejected / STUDIES),
    pct(pearsonRejected / STUDIES),
  ];
  rows.push(`| ${row.join(" | ")} |`);
  process.stderr.write(`${rows[rows.length - 1]}\n`);
}
process.stdout.write(
  `${rows.join("\n")}\n\n${STUDIES} studies per row, B = ${REPLICATES}; ${((Date.now() - started) / 1000).toFixed(0)} s.\n`,
);
