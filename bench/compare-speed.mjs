// `node bench/compare-speed.mjs` (after `npm run build`): the cost of `compare` against the per-player
// robustness analyses it stands beside, run side by side in one process, as a ratio.
//
// The record: 20 players × 4 two-action games × 11 framings = 880 cells of 30 decisions each (imported-style
// counts, resampled by decision), B = 10,000. Anchor: `robustnessAnalysis` run once per player (20 runs,
// its permutation test and interval inversion included, as `analyze robustness --players P` would).
// Measured: `compareGroups` over all 20 players (190 pairs × 2 measures, ranks of 20). Rounds alternate
// anchor and compare; the medians are reported. Then λ and exploitability too (every game a prisoner's
// dilemma's payoffs, for timing), against the anchor plus `payoffSensitivityAnalysis` once per player.
import { compareGroups } from "../dist/analysis/comparison/compare-groups.js";
import { equilibriumDeviation } from "../dist/analysis/equilibrium/deviation.js";
import { robustnessAnalysis } from "../dist/analysis/robustness/robustness.js";
import {
  payoffDifference,
  payoffSensitivityAnalysis,
} from "../dist/analysis/sensitivity/payoff-sensitivity.js";

const PLAYERS = 20;
const GAMES = ["prisoners-dilemma", "snowdrift", "stag-hunt", "harmony"];
const FRAMINGS = Array.from({ length: 11 }, (_, f) => `framing-${String(f).padStart(2, "0")}`);
const N = 30;
const B = Number(process.argv[2] ?? 10_000);
const ROUNDS = Number(process.argv[3] ?? 3);

// Deterministic counts: player p, game g, framing f cooperates x of 30 times.
const cooperate = (p, g, f) => (7 * p + 5 * g + 3 * f * (1 + (p % 3))) % (N + 1);
const rows = [];
const cellsOf = new Map();
for (let p = 0; p < PLAYERS; p++) {
  const player = `player-${String(p).padStart(2, "0")}`;
  const cells = [];
  GAMES.forEach((game, g) => {
    FRAMINGS.forEach((framing, f) => {
      const x = cooperate(p, g, f);
      cells.push({ player, game, framing, counts: { cooperate: x, defect: N - x } });
      for (const [action, count] of [
        ["cooperate", x],
        ["defect", N - x],
      ]) {
        if (count > 0) rows.push({ group: player, game, framing, action, count, unit: null, position: null });
      }
    });
  });
  cellsOf.set(player, cells);
}
const cooperativeAction = Object.fromEntries(GAMES.map((g) => [g, "cooperate"]));

function anchor() {
  for (const cells of cellsOf.values()) {
    robustnessAnalysis(cells, { framings: FRAMINGS, cooperativeAction, bootstrap: B, seed: 1 });
  }
}
function compare() {
  compareGroups(rows, {
    framings: FRAMINGS,
    actionsOf: () => ["cooperate", "defect"],
    cooperativeAction: () => "cooperate",
    bootstrap: B,
    seed: 1,
  });
}
const stage = {
  actions: ["cooperate", "defect"],
  u1: [
    [3, 0],
    [5, 1],
  ],
  u2: [
    [3, 5],
    [0, 1],
  ],
};
const pooled = {
  deltaU: () => payoffDifference("pd", { stage, cooperativeAction: "cooperate" }).delta_u,
  cooperative: () => 0,
  exploitability: (_, d) =>
    equilibriumDeviation(stage, { cooperate: d[0], defect: d[1] }).exploitability.normalized,
};
const sensitivityGames = Object.fromEntries(GAMES.map((g) => [g, { stage, cooperativeAction: "cooperate" }]));
function anchorWithSensitivity() {
  anchor();
  for (const cells of cellsOf.values()) {
    payoffSensitivityAnalysis(cells, { games: sensitivityGames, bootstrap: B, seed: 1 });
  }
}
function compareWithPooled() {
  compareGroups(rows, {
    framings: FRAMINGS,
    actionsOf: () => ["cooperate", "defect"],
    cooperativeAction: () => "cooperate",
    pooled,
    bootstrap: B,
    seed: 1,
  });
}
const time = (f) => {
  const t = process.hrtime.bigint();
  f();
  return Number(process.hrtime.bigint() - t) / 1e6;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const a = [];
const c = [];
for (let r = 0; r < ROUNDS; r++) {
  a.push(time(anchor));
  c.push(time(compare));
}
console.log(
  `${PLAYERS} players × ${GAMES.length * FRAMINGS.length} cells each = ${PLAYERS * GAMES.length * FRAMINGS.length} cells, n ${N}, B = ${B}, ${ROUNDS} rounds`,
);
console.log(
  `per-player robustness (20 runs): median ${median(a).toFixed(0)} ms  [${a.map((x) => x.toFixed(0)).join(", ")}]`,
);
console.log(
  `compare (all 20 players):        median ${median(c).toFixed(0)} ms  [${c.map((x) => x.toFixed(0)).join(", ")}]`,
);
console.log(`ratio compare / per-player robustness: ${(median(c) / median(a)).toFixed(2)}`);
const as = [];
const cs = [];
for (let r = 0; r < ROUNDS; r++) {
  as.push(time(anchorWithSensitivity));
  cs.push(time(compareWithPooled));
}
console.log(
  `per-player robustness + sensitivity: median ${median(as).toFixed(0)} ms  [${as.map((x) => x.toFixed(0)).join(", ")}]`,
);
console.log(
  `compare with λ and exploitability:   median ${median(cs).toFixed(0)} ms  [${cs.map((x) => x.toFixed(0)).join(", ")}]`,
);
console.log(`ratio: ${(median(cs) / median(as)).toFixed(2)}`);
