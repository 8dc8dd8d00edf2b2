/**
 * `npm run story-labels-check`: the verdict of `analyze story-labels` checked by simulation, a benchmark and
 * not a test — it prints a table. Each row is a 2 × 2 crossing (story × label set) with a known truth; it
 * simulates `STUDIES` records, analyses each with `storyLabelEffects`, and counts the verdicts. Under no
 * effect every verdict but "neither" is false, and their share must stay at most 5% (+ Monte Carlo error);
 * a crossover (no main effect, a clear interaction) should read "interaction".
 *
 * Usage: npm run story-labels-check [-- --studies 2000 --replicates 1000]
 */
import type { CountCell } from "../../src/analysis/count-cells.js";
import { createBootstrapRng, type UniformSource } from "../../src/analysis/sampling/fast-rng.js";
import { storyLabelEffects, type Verdict } from "../../src/analysis/story-labels/story-label-effects.js";

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
};
const STUDIES = Number(arg("studies", "2000"));
const REPLICATES = Number(arg("replicates", "1000"));

/** P(cooperate) and decisions per cell, in the order (s1,l1), (s1,l2), (s2,l1), (s2,l2). */
interface Row {
  name: string;
  p: [number, number, number, number];
  n: [number, number, number, number];
  /** Decisions per session (1 = every decision its own session) and the intra-session correlation. */
  m: number;
  rho: number;
  /** The verdicts that are correct for this truth. */
  correct: Verdict[];
}

const nul = (p: number, n: [number, number, number, number], m = 1, rho = 0): Row => ({
  name: `no effect, p = ${p}, n = ${n.join("/")}${m > 1 ? `, sessions of ${m}, ρ ${rho}` : ""}`,
  p: [p, p, p, p],
  n,
  m,
  rho,
  correct: ["neither"],
});
const even = (n: number): [number, number, number, number] => [n, n, n, n];

const rows: Row[] = [
  nul(0.5, even(5)),
  nul(0.5, even(20)),
  nul(0.5, even(100)),
  nul(0.2, even(20)),
  nul(0.05, even(20)),
  nul(1, even(20)),
  nul(0.5, [10, 40, 80, 300]),
  nul(0.3, [5, 300, 20, 80]),
  nul(0.5, even(40), 5, 0.3),
  {
    name: "crossover .3/.7/.7/.3, n = 40",
    p: [0.3, 0.7, 0.7, 0.3],
    n: even(40),
    m: 1,
    rho: 0,
    correct: ["interaction"],
  },
  {
    name: "crossover .2/.8/.8/.2, n = 20",
    p: [0.2, 0.8, 0.8, 0.2],
    n: even(20),
    m: 1,
    rho: 0,
    correct: ["interaction"],
  },
  {
    name: "story only .3 → .6, n = 60",
    p: [0.3, 0.3, 0.6, 0.6],
    n: even(60),
    m: 1,
    rho: 0,
    correct: ["story"],
  },
  {
    name: "labels only .1 → .9, n = 40",
    p: [0.1, 0.9, 0.1, 0.9],
    n: even(40),
    m: 1,
    rho: 0,
    correct: ["labels"],
  },
];

function beta(a: number, b: number, rng: UniformSource): number {
  for (;;) {
    const x = rng.next() ** (1 / a);
    const y = rng.next() ** (1 / b);
    if (x + y <= 1 && x + y > 0) return x / (x + y);
  }
}

const FRAMINGS = ["b", "b+familiar", "f", "f+familiar"] as const;
const presentationOf = (framing: string) => {
  const [story, labels] = framing.split("+");
  return { story: story as string, labels: labels ?? "story-true" };
};

function cell(framing: string, p: number, n: number, m: number, rho: number, rng: UniformSource): CountCell {
  const sessions = Math.ceil(n / m);
  const clusters = Array.from({ length: sessions }, (_, i) => {
    const size = Math.min(m, n - i * m);
    const ps =
      rho === 0 || p === 0 || p === 1 ? p : beta((p * (1 - rho)) / rho, ((1 - p) * (1 - rho)) / rho, rng);
    let c = 0;
    for (let d = 0; d < size; d++) if (rng.next() < ps) c++;
    return { cooperate: c, defect: size - c };
  });
  const cooperate = clusters.reduce((s, k) => s + k.cooperate, 0);
  return {
    player: "m",
    game: "g",
    framing,
    counts: { cooperate, defect: n - cooperate },
    ...(m > 1 ? { clusters } : {}),
  };
}

const table = [
  "| truth | neither | story | labels | both | interaction | correct |",
  "| --- | --- | --- | --- | --- | --- | --- |",
];
for (const row of rows) {
  const rng = createBootstrapRng(`story-labels:${row.name}`);
  const tally: Record<Verdict, number> = { neither: 0, story: 0, labels: 0, both: 0, interaction: 0 };
  for (let s = 0; s < STUDIES; s++) {
    const cells = FRAMINGS.map((f, i) =>
      cell(f, row.p[i] as number, row.n[i] as number, row.m, row.rho, rng),
    );
    const result = storyLabelEffects(cells, {
      presentationOf,
      focalAction: { g: "cooperate" },
      bootstrap: REPLICATES,
      seed: s + 1,
    });
    tally[result.units[0]?.verdict ?? "neither"]++;
  }
  const pct = (k: number) => `${((100 * k) / STUDIES).toFixed(1)}%`;
  const correct = row.correct.reduce((sum, v) => sum + tally[v], 0);
  table.push(
    `| ${row.name} | ${pct(tally.neither)} | ${pct(tally.story)} | ${pct(tally.labels)} | ${pct(tally.both)} | ${pct(tally.interaction)} | ${pct(correct)} |`,
  );
  process.stderr.write(`${table[table.length - 1]}\n`);
}
const mcError = (200 * Math.sqrt(0.05 * 0.95)) / Math.sqrt(STUDIES);
process.stdout.write(
  `${table.join("\n")}\n\n${STUDIES} studies per row, B = ${REPLICATES}; at 5% false verdicts two Monte Carlo standard errors are ±${mcError.toFixed(1)} points.\n`,
);
