/**
 * `npm run power-check`: the power formulas of `analyze power` checked by simulation, a
 * benchmark and not a test — it prints a table. For each planned contrast it takes the formula's trials per
 * framing, simulates `STUDIES` records of that size, analyses each with `robustnessAnalysis`, and counts how
 * often the contrast is detected: for a drop in R, the permutation test of invariance rejecting at 5%; for
 * a shift, its 95% interval excluding 0. The formulas promise 80%.
 *
 * Usage: npm run power-check [-- --studies 400 --replicates 500]
 */
import type { CountCell } from "../../src/analysis/count-cells.js";
import { trialsToDetectShift, trialsToExcludeInvariance } from "../../src/analysis/power/power.js";
import { robustnessAnalysis } from "../../src/analysis/robustness/robustness.js";
import { createBootstrapRng, type UniformSource } from "../../src/analysis/sampling/fast-rng.js";
import { jensenShannon } from "../../src/domain/divergence.js";

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
};
const STUDIES = Number(arg("studies", "400"));
const REPLICATES = Number(arg("replicates", "500"));

/** The rate q ≥ ½ whose two-cell R against ½ is `r` (bisection on the monotone JSD). */
function rateForR(r: number): number {
  let lo = 0.5;
  let hi = 1;
  for (let i = 0; i < 80; i++) {
    const mid = (lo + hi) / 2;
    const R = 1 - jensenShannon([0.5, 0.5], [mid, 1 - mid]) / Math.LN2;
    if (R > r) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

function beta(a: number, b: number, rng: UniformSource): number {
  for (;;) {
    const x = rng.next() ** (1 / a);
    const y = rng.next() ** (1 / b);
    if (x + y <= 1 && x + y > 0) return x / (x + y);
  }
}

/** One cell of n decisions in sessions of m with intra-session correlation ρ (beta-binomial). */
function cell(framing: string, p: number, n: number, m: number, rho: number, rng: UniformSource): CountCell {
  const sessions = Math.ceil(n / m);
  const clusters = Array.from({ length: sessions }, () => {
    const ps = rho === 0 ? p : beta((p * (1 - rho)) / rho, ((1 - p) * (1 - rho)) / rho, rng);
    let c = 0;
    for (let d = 0; d < m; d++) if (rng.next() < ps) c++;
    return { cooperate: c, defect: m - c };
  });
  const cooperate = clusters.reduce((s, k) => s + k.cooperate, 0);
  const total = sessions * m;
  return {
    player: "m",
    game: "g",
    framing,
    counts: { cooperate, defect: total - cooperate },
    ...(m > 1 ? { clusters } : {}),
  };
}

interface Plan {
  name: string;
  pa: number;
  pb: number;
  n: number;
  m: number;
  rho: number;
  detect: "invariance" | "shift";
}

const plans: Plan[] = [];
for (const [r, m, rho] of [
  [0.9, 1, 0],
  [0.95, 1, 0],
  [0.98, 1, 0],
  [0.95, 10, 0.1],
  [0.95, 5, 0.3],
] as const) {
  const plan = trialsToExcludeInvariance({ trueR: r, decisionsPerSession: m, intraSessionCorrelation: rho });
  plans.push({
    name: `R = ${r}: exclude R = 1${m > 1 ? `, sessions of ${m}, ρ ${rho}` : ""}`,
    pa: 0.5,
    pb: rateForR(r),
    n: plan.trials_per_framing,
    m,
    rho,
    detect: "invariance",
  });
}
for (const [m, rho] of [
  [1, 0],
  [10, 0.1],
  [10, 0.3],
] as const) {
  const n = trialsToDetectShift({
    baselineRate: 0.3,
    shift: 0.2,
    decisionsPerSession: m,
    intraSessionCorrelation: rho,
  }).trials_per_framing;
  plans.push({
    name: `shift .3 → .5, sessions of ${m}, ρ ${rho}`,
    pa: 0.3,
    pb: 0.5,
    n,
    m,
    rho,
    detect: "shift",
  });
}

const rows = ["| contrast | trials per framing (formula) | detected | target |", "| --- | --- | --- | --- |"];
for (const plan of plans) {
  const rng = createBootstrapRng(`power:${plan.name}`);
  let detected = 0;
  for (let s = 0; s < STUDIES; s++) {
    const result = robustnessAnalysis(
      [cell("a", plan.pa, plan.n, plan.m, plan.rho, rng), cell("b", plan.pb, plan.n, plan.m, plan.rho, rng)],
      { cooperativeAction: { g: "cooperate" }, bootstrap: REPLICATES, seed: s + 1 },
    );
    const game = result.games[0];
    if (plan.detect === "invariance" && (game?.invariance.p_value ?? 1) <= 0.05) detected++;
    if (plan.detect === "shift" && game?.shift && (game.shift.ci[0] > 0 || game.shift.ci[1] < 0)) detected++;
  }
  rows.push(`| ${plan.name} | ${plan.n} | ${((100 * detected) / STUDIES).toFixed(1)}% | 80% |`);
  process.stderr.write(`${rows[rows.length - 1]}\n`);
}
process.stdout.write(`${rows.join("\n")}\n\n${STUDIES} studies per row, B = ${REPLICATES}.\n`);
