// Coverage of `compare` on repeated play (src/analysis/comparison/compare-repeated.ts): simulated groups
// play 16-round prisoner's dilemmas (the catalog's repeated-pd stage payoffs) against an opponent, each
// round cooperating with a group's own probability; each row checks how often the 95% interval of the
// difference a − b holds the true difference of mean points, cooperation and comprehension m (truths by a
// large Monte Carlo of the same policy), how often Holm rejects any pair when all groups are equal, and
// how often every group's true rank lies inside its rank interval (all at once), per measure. The
// difference columns are of the first two groups.
//
//   npm run coverage:compare-repeated -- --studies 400

import { compareRepeated } from "../../src/analysis/comparison/compare-repeated.js";
import type { RepeatedMatchRow } from "../../src/analysis/comparison/repeated-replicates.js";
import { comprehensionRound } from "../../src/analysis/repeated/repeated-metrics.js";
import { createBootstrapRng, type UniformSource } from "../../src/analysis/sampling/fast-rng.js";
import { loadCatalog } from "../../src/domain/catalog.js";
import { ONLY, REPLICATES, STUDIES } from "./run-options.js";

const stage = loadCatalog().stageGame("repeated-pd", "base");
const ROUNDS = 16;
const u = (i: number, j: number) => (stage.u1[i] as number[])[j] as number;

/**
 * One match: the player cooperates (action 0) with probability p each round; the opponent is tit-for-tat,
 * or, when `opponentRng` is given, a coin of its own (shared between groups at a schedule position).
 */
function play(p: number, rng: UniformSource, opponentRng?: UniformSource) {
  let points = 0;
  let cooperated = 0;
  let previous = 0;
  const successes: boolean[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const mine = rng.next() < p ? 0 : 1;
    const theirs = opponentRng ? (opponentRng.next() < 0.5 ? 0 : 1) : previous;
    const x = u(mine, theirs);
    points += x;
    if (mine === 0) cooperated++;
    successes.push(x >= u(theirs, theirs));
    previous = mine;
  }
  return { points, cooperation: cooperated / ROUNDS, m: comprehensionRound(successes, 0.9) };
}

/** The true means of a policy, by a large Monte Carlo. */
function truth(p: number, random: boolean) {
  const rng = createBootstrapRng(`truth:${p}:${random}`);
  const N = 200_000;
  let points = 0;
  let cooperation = 0;
  let m = 0;
  for (let i = 0; i < N; i++) {
    const r = play(p, rng, random ? rng : undefined);
    points += r.points;
    cooperation += r.cooperation;
    m += r.m;
  }
  return { points: points / N, cooperation: cooperation / N, comprehension_m: m / N };
}

interface Row {
  name: string;
  /** Per group: cooperation probability and matches. */
  groups: { p: number; n: number }[];
  /** Groups play the same schedule positions against a shared random opponent (paired). */
  paired?: boolean;
}

const ROWS: Row[] = [
  {
    name: "equal groups, 5 vs 5 matches",
    groups: [
      { p: 0.5, n: 5 },
      { p: 0.5, n: 5 },
    ],
  },
  {
    name: "small difference, 10 vs 10",
    groups: [
      { p: 0.5, n: 10 },
      { p: 0.65, n: 10 },
    ],
  },
  {
    name: "large difference, 30 vs 30",
    groups: [
      { p: 0.1, n: 30 },
      { p: 0.9, n: 30 },
    ],
  },
  {
    name: "very unequal sizes, 3 vs 30",
    groups: [
      { p: 0.4, n: 3 },
      { p: 0.6, n: 30 },
    ],
  },
  {
    name: "one near-deterministic, 5 vs 5",
    groups: [
      { p: 0.97, n: 5 },
      { p: 0.5, n: 5 },
    ],
  },
  {
    name: "paired schedule, random opponent, 8 vs 8",
    groups: [
      { p: 0.4, n: 8 },
      { p: 0.6, n: 8 },
    ],
    paired: true,
  },
  { name: "Holm, 5 equal groups of 6", groups: Array.from({ length: 5 }, () => ({ p: 0.5, n: 6 })) },
  {
    name: "ranks, 3 spread groups of 10",
    groups: [
      { p: 0.2, n: 10 },
      { p: 0.5, n: 10 },
      { p: 0.8, n: 10 },
    ],
  },
  {
    name: "ranks, near-deterministic + 2, 5 matches each",
    groups: [
      { p: 0.97, n: 5 },
      { p: 0.5, n: 5 },
      { p: 0.6, n: 5 },
    ],
  },
  {
    name: "ranks, unequal sizes 3 / 10 / 30",
    groups: [
      { p: 0.4, n: 3 },
      { p: 0.5, n: 10 },
      { p: 0.6, n: 30 },
    ],
  },
];

const MEASURES = ["points", "cooperation", "comprehension_m"] as const;

for (const row of ROWS) {
  if (ONLY && !row.name.includes(ONLY)) continue;
  const truths = row.groups.map((g) => truth(g.p, row.paired === true));
  const covered = { points: 0, cooperation: 0, comprehension_m: 0 };
  // Every group's true rank (1 + the groups truly better: more points or cooperation, a smaller m).
  const better = (measure: (typeof MEASURES)[number], x: number, y: number) =>
    measure === "comprehension_m" ? x < y - 1e-9 : x > y + 1e-9;
  const trueRank = (measure: (typeof MEASURES)[number], g: number) =>
    1 +
    truths.filter((t) =>
      better(
        measure,
        (t as Record<string, number>)[measure] as number,
        (truths[g] as Record<string, number>)[measure] as number,
      ),
    ).length;
  const ranksCovered = { points: 0, cooperation: 0, comprehension_m: 0 };
  let familyErrors = 0;
  const rng = createBootstrapRng(`study:${row.name}`);
  const started = Date.now();
  for (let s = 0; s < STUDIES; s++) {
    const rows: RepeatedMatchRow[] = [];
    row.groups.forEach((g, k) => {
      for (let t = 0; t < g.n; t++) {
        const opponent = row.paired ? createBootstrapRng(`opponent:${s}:${t}`) : undefined;
        const r = play(g.p, rng, opponent);
        rows.push({
          group: `g${k}`,
          game: "repeated-pd",
          framing: "plain",
          opponent: row.paired ? "random" : "tit-for-tat",
          opponent_params: {},
          unit: `g${k}:${t}`,
          position: row.paired ? `study#zero-shot#random#${t + 1}` : null,
          points: r.points,
          cooperation: r.cooperation,
          comprehension_m: r.m,
          rounds: ROUNDS,
        });
      }
    });
    const result = compareRepeated(rows, { bootstrap: REPLICATES, seed: s + 1 });
    for (const measure of MEASURES) {
      const pair = result.pairs.find((p) => p.measure === measure && p.a === "g0" && p.b === "g1");
      if (!pair) continue;
      const d =
        (truths[0] as Record<string, number>)[measure] - (truths[1] as Record<string, number>)[measure];
      if (pair.difference.ci[0] <= d + 1e-12 && d - 1e-12 <= pair.difference.ci[1]) covered[measure]++;
    }
    for (const measure of MEASURES) {
      const ranks = result.ranks.filter((r) => r.measure === measure);
      const inside = ranks.every((r) => {
        const truth = trueRank(measure, Number(r.group.slice(1)));
        return r.rank.ci[0] <= truth && truth <= r.rank.ci[1];
      });
      if (ranks.length === row.groups.length && inside) ranksCovered[measure]++;
    }
    if (row.groups.length > 2 && result.pairs.some((p) => p.measure === "points" && p.p_adjusted <= 0.05))
      familyErrors++;
  }
  const pct = (x: number) => ((100 * x) / STUDIES).toFixed(1);
  console.log(
    `${row.name.padEnd(44)} points ${pct(covered.points)}%  cooperation ${pct(covered.cooperation)}%  m ${pct(covered.comprehension_m)}%${row.groups.length > 2 ? `  family-wise error (points) ${pct(familyErrors)}%` : ""}  all true ranks inside: points ${pct(ranksCovered.points)}%  cooperation ${pct(ranksCovered.cooperation)}%  m ${pct(ranksCovered.comprehension_m)}%  (${STUDIES} studies, B = ${REPLICATES}, ${((Date.now() - started) / 1000).toFixed(0)} s)`,
  );
}
