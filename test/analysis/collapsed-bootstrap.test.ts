// The collapsed resampling must be the resampling it replaces. Where the draws are the same
// draws (direct mode: clusters listed once with a weight, or the shuffle-free paths that consume the
// stream identically) the results must be equal to the last bit; where the algorithm changes (multinomial
// multiplicities, multivariate hypergeometric permutations) the distributions must agree: two-sample
// Kolmogorov–Smirnov against the per-cluster algorithm, and the exact mean and variance within 5 standard
// errors.
import { describe, expect, it } from "vitest";
import type { CountCell } from "../../src/analysis/count-cells.js";
import { permutationFill } from "../../src/analysis/invariance/invariance-permutation.js";
import { robustnessAnalysis } from "../../src/analysis/robustness/robustness.js";
import { planRobustness } from "../../src/analysis/robustness/robustness-plan.js";
import { createCellResampler, drawCellReplicates } from "../../src/analysis/sampling/cell-resampling.js";
import {
  binomialByWalk,
  createMultiplicitySampler,
  drawMultiplicities,
} from "../../src/analysis/sampling/cluster-multiplicities.js";
import { createBootstrapRng } from "../../src/analysis/sampling/fast-rng.js";

const COOPERATE = { pd: "cooperate" } as const;

/** Two-sample KS statistic D = sup |F₁ − F₂| of two integer samples. */
function ksStatistic(a: Int32Array, b: Int32Array): number {
  const sa = Int32Array.from(a).sort();
  const sb = Int32Array.from(b).sort();
  let i = 0;
  let j = 0;
  let d = 0;
  while (i < sa.length && j < sb.length) {
    const v = Math.min(sa[i] as number, sb[j] as number);
    while (i < sa.length && sa[i] === v) i++;
    while (j < sb.length && sb[j] === v) j++;
    d = Math.max(d, Math.abs(i / sa.length - j / sb.length));
  }
  return d;
}

/** The KS critical value at level 0.001 (c = 1.95); conservative for discrete samples. */
const ksCritical = (n: number, m: number) => 1.95 * Math.sqrt((n + m) / (n * m));

function moments(x: Int32Array): { mean: number; variance: number } {
  let sum = 0;
  for (const v of x) sum += v;
  const mean = sum / x.length;
  let ss = 0;
  for (const v of x) ss += (v - mean) ** 2;
  return { mean, variance: ss / (x.length - 1) };
}

/** A cell of `sessions` sessions drawn from a few kinds, listed one by one (content order) or collapsed. */
function sessionCell(
  framing: string,
  kinds: [number, number, number][],
): { listed: CountCell; collapsed: CountCell } {
  const listed: Record<string, number>[] = [];
  let cooperate = 0;
  let defect = 0;
  for (const [c, d, times] of kinds) {
    for (let i = 0; i < times; i++) listed.push({ cooperate: c, defect: d });
    cooperate += c * times;
    defect += d * times;
  }
  const base = { player: "m", game: "pd", framing, counts: { cooperate, defect } };
  return {
    listed: { ...base, clusters: listed },
    collapsed: {
      ...base,
      clusters: kinds.map(([c, d]) => ({ cooperate: c, defect: d })),
      cluster_weights: kinds.map(([, , times]) => times),
    },
  };
}

describe("collapsed cluster bootstrap", () => {
  it("gives the same result to the last bit when sessions with equal counts are listed once with a weight (direct draws)", () => {
    // 3 types over 10 sessions (S ≤ 4T: direct mode), sessions of several decisions: resampled by session.
    const a = sessionCell("a", [
      [2, 0, 3],
      [1, 1, 4],
      [0, 3, 3],
    ]);
    const b = sessionCell("b", [
      [3, 0, 5],
      [0, 2, 2],
      [1, 2, 3],
    ]);
    const options = { cooperativeAction: COOPERATE, bootstrap: 2_000, seed: 7 };
    const listed = robustnessAnalysis([a.listed, b.listed], options);
    const collapsed = robustnessAnalysis([a.collapsed, b.collapsed], options);
    expect(listed.unit).toBe("session");
    expect(collapsed).toEqual(listed);
  });

  it("draws multiplicities from the same distribution as drawing every cluster (KS, exact mean and variance)", () => {
    // 400 sessions of 3 types (S > 4T: multinomial mode): cooperate count per replicate.
    const kinds: [number, number, number][] = [
      [3, 0, 100],
      [1, 2, 220],
      [0, 1, 80],
    ];
    const { collapsed } = sessionCell("a", kinds);
    const plan = planRobustness([collapsed, { ...collapsed, framing: "b" }], undefined, COOPERATE);
    const resampler = createCellResampler(plan.cells[0] as (typeof plan.cells)[number]);
    expect(resampler.kind === "sessions" && resampler.multiplicities.mode).toBe("multinomial");
    const B = 20_000;
    const out = new Int32Array(B * 2);
    drawCellReplicates(resampler, createBootstrapRng(11), B, out);
    const collapsedCooperate = Int32Array.from({ length: B }, (_, r) => out[2 * r] as number);

    // The per-session bootstrap of before: S uniform session indices per replicate.
    const sessions = kinds.flatMap(([c, , times]) => Array.from({ length: times }, () => c));
    const rng = createBootstrapRng(12);
    const perSession = Int32Array.from({ length: B }, () => {
      let x = 0;
      for (let s = 0; s < sessions.length; s++) x += sessions[(rng.next() * sessions.length) | 0] as number;
      return x;
    });
    expect(ksStatistic(collapsedCooperate, perSession)).toBeLessThan(ksCritical(B, B));

    // Exact: E = S·E[x] = observed count 300 + 220 = 520; Var = S·Var(x) over the sessions.
    const S = sessions.length;
    const ex = sessions.reduce((s, x) => s + x, 0) / S;
    const ex2 = sessions.reduce((s, x) => s + x * x, 0) / S;
    const variance = S * (ex2 - ex * ex);
    const m = moments(collapsedCooperate);
    expect(Math.abs(m.mean - 520)).toBeLessThan(5 * Math.sqrt(variance / B));
    // SE of a sample variance ≈ σ²·√(2/(B − 1)) (near-normal counts).
    expect(Math.abs(m.variance - variance)).toBeLessThan(5 * variance * Math.sqrt(2 / (B - 1)));
  });

  it("draws a small-mean binomial by inverting its CDF, without tables (memory flat at 1M decisions)", () => {
    // Binomial(200, 0.03): P(X ≤ x) from C(200, j)·0.03^j·0.97^(200−j), summed by hand here. Just below
    // a CDF step the draw is x, just above it x + 1.
    let cdf = 0;
    let choose = 1;
    for (let x = 0; x <= 15; x++) {
      cdf += choose * 0.03 ** x * 0.97 ** (200 - x);
      choose = (choose * (200 - x)) / (x + 1);
      expect(binomialByWalk(200, 0.03, cdf - 1e-12)).toBe(x);
      expect(binomialByWalk(200, 0.03, cdf + 1e-12)).toBe(x + 1);
    }
    // A cell of 252 sessions of 44 types (the 1M scale record's "cell" players): every conditional
    // binomial has a small mean, so no table is ever cached, however many replicates are drawn.
    const weights = Array.from({ length: 44 }, (_, t) => 3 + (t % 5) * 1.5 * 2);
    const sampler = createMultiplicitySampler(weights.map(Math.round));
    expect(sampler.mode).toBe("multinomial");
    const drawn = new Int32Array(44);
    const rng = createBootstrapRng(9);
    for (let r = 0; r < 2_000; r++) drawMultiplicities(sampler, rng, drawn);
    expect(sampler.tables.size).toBe(0);
  });

  it("holds a type's binomial tables only once that type has needed one", () => {
    // 300,000 sessions of 100,000 distinct types (3 each): direct mode, which never draws from a table,
    // so none is made, however many types there are.
    const direct = createMultiplicitySampler(new Array(100_000).fill(3));
    expect(direct.mode).toBe("direct");
    expect(direct.tables.size).toBe(0);
    // Types of 400 and 200 clusters among 10,010: the first binomial has mean 10,010 · 400/10,010 = 400,
    // above the walk's 24, so it is drawn from a table, and so is the second (mean 200 of what is left);
    // the ten single clusters (means ≤ 24) are walked. Tables of types 0 and 1 only, one per remaining
    // size met.
    const weights = [400, 200, ...new Array(10).fill(1), 9_400];
    const sampler = createMultiplicitySampler(weights);
    expect(sampler.mode).toBe("multinomial");
    const drawn = new Int32Array(weights.length);
    drawMultiplicities(sampler, createBootstrapRng(5), drawn);
    expect([...sampler.tables.keys()]).toEqual([0, 1]);
    expect(sampler.tables.get(0)?.size).toBe(1);
  });

  it("multinomial multiplicities always add up to the number of clusters", () => {
    const sampler = createMultiplicitySampler([1, 50, 3, 400, 7]);
    expect(sampler.mode).toBe("multinomial");
    const drawn = new Int32Array(5);
    const rng = createBootstrapRng(3);
    for (let r = 0; r < 1_000; r++) {
      drawMultiplicities(sampler, rng, drawn);
      expect(drawn.reduce((s, m) => s + m, 0)).toBe(461);
      expect(drawn.every((m) => m >= 0)).toBe(true);
    }
  });
});

describe("collapsed permutation test", () => {
  it("reassigns decisions to 5 framings with the null distribution of a shuffle (KS, exact hypergeometric moments)", () => {
    const sizes = [60, 45, 80, 50, 65]; // N = 300, 120 cooperate in all
    const coops = [30, 20, 25, 20, 25];
    const cells = sizes.map((n, f) => ({
      player: "m",
      game: "pd",
      framing: `f${f}`,
      counts: { cooperate: coops[f] as number, defect: n - (coops[f] as number) },
    }));
    const plan = planRobustness(cells, undefined, COOPERATE);
    const B = 20_000;
    const fill = permutationFill(plan, createBootstrapRng(5));
    const first = new Int32Array(B * 2);
    const third = new Int32Array(B * 2);
    fill(0, B, first);
    fill(2, B, third);
    const N = 300;
    const K = 120;
    // The shuffle of before: the first 60 of a random order go to f0, the 80 from 105 on to f2.
    const rng = createBootstrapRng(6);
    const order = Int32Array.from({ length: N }, (_, i) => (i < K ? 1 : 0));
    const shuffled0 = new Int32Array(B);
    const shuffled2 = new Int32Array(B);
    for (let r = 0; r < B; r++) {
      for (let i = N - 1; i > 0; i--) {
        const j = (rng.next() * (i + 1)) | 0;
        const t = order[i] as number;
        order[i] = order[j] as number;
        order[j] = t;
      }
      for (let i = 0; i < 60; i++) shuffled0[r] = (shuffled0[r] as number) + (order[i] as number);
      for (let i = 105; i < 185; i++) shuffled2[r] = (shuffled2[r] as number) + (order[i] as number);
    }
    const collapsed0 = Int32Array.from({ length: B }, (_, r) => first[2 * r] as number);
    const collapsed2 = Int32Array.from({ length: B }, (_, r) => third[2 * r] as number);
    expect(ksStatistic(collapsed0, shuffled0)).toBeLessThan(ksCritical(B, B));
    expect(ksStatistic(collapsed2, shuffled2)).toBeLessThan(ksCritical(B, B));
    for (const [x, m] of [
      [collapsed0, 60],
      [collapsed2, 80],
    ] as const) {
      const mean = (m * K) / N;
      const variance = (((m * K) / N) * (1 - K / N) * (N - m)) / (N - 1);
      const got = moments(x);
      expect(Math.abs(got.mean - mean)).toBeLessThan(5 * Math.sqrt(variance / B));
      expect(Math.abs(got.variance - variance)).toBeLessThan(5 * variance * Math.sqrt(2 / (B - 1)));
    }
    // Every replicate keeps each framing's size, and the last framing gets what the others left: the
    // five framings' cooperations add up to the 120 of the record.
    const framings = [0, 1, 2, 3, 4].map((c) => {
      const out = new Int32Array(B * 2);
      permutationFill(plan, createBootstrapRng(5))(c, B, out);
      return out;
    });
    for (let r = 0; r < B; r++) {
      expect((first[2 * r] as number) + (first[2 * r + 1] as number)).toBe(60);
      const last = framings[4] as Int32Array;
      expect((last[2 * r] as number) + (last[2 * r + 1] as number)).toBe(65);
      expect(framings.reduce((sum, f) => sum + (f[2 * r] as number), 0)).toBe(120);
    }
  });
});

describe("collapsed session permutation", () => {
  it("reassigns whole sessions to 3 framings with the null distribution of a shuffle (KS, exact moments)", () => {
    // 360 sessions of 4 kinds over 3 framings: (F − 1)(T − 1)·10 = 60 < 360, so sessions are collapsed.
    const kinds: [number, number][] = [
      [1, 0],
      [0, 1],
      [2, 1],
      [0, 3],
    ];
    const perFraming = [100, 140, 120];
    const rng = createBootstrapRng(31);
    const sessions: [number, number][] = [];
    const cells: CountCell[] = perFraming.map((m, f) => {
      const clusters: Record<string, number>[] = [];
      for (let s = 0; s < m; s++) {
        const [c, d] = kinds[(rng.next() * kinds.length) | 0] as [number, number];
        clusters.push({ cooperate: c, defect: d });
        sessions.push([c, d]);
      }
      const cooperate = clusters.reduce((x, c) => x + (c.cooperate ?? 0), 0);
      const defect = clusters.reduce((x, c) => x + (c.defect ?? 0), 0);
      return { player: "m", game: "pd", framing: `f${f}`, counts: { cooperate, defect }, clusters };
    });
    const plan = planRobustness(cells, undefined, COOPERATE);
    expect(plan.units[0]?.unit).toBe("session");
    const B = 20_000;
    const fill = permutationFill(plan, createBootstrapRng(8), true);
    const second = new Int32Array(B * 2);
    fill(0, B, new Int32Array(B * 2));
    fill(1, B, second);
    // The shuffle of before: sessions 100..239 of a random order go to f1.
    const S = sessions.length;
    const order = sessions.map(([c]) => c);
    const stream = createBootstrapRng(9);
    const shuffled = new Int32Array(B);
    for (let r = 0; r < B; r++) {
      for (let i = S - 1; i > 0; i--) {
        const j = (stream.next() * (i + 1)) | 0;
        const t = order[i] as number;
        order[i] = order[j] as number;
        order[j] = t;
      }
      for (let i = 100; i < 240; i++) shuffled[r] = (shuffled[r] as number) + (order[i] as number);
    }
    const collapsed = Int32Array.from({ length: B }, (_, r) => second[2 * r] as number);
    expect(ksStatistic(collapsed, shuffled)).toBeLessThan(ksCritical(B, B));
    // Exact: 140 of 360 sessions without replacement: mean 140·μ, variance 140·σ²·(360 − 140)/(360 − 1).
    const mu = sessions.reduce((x, [c]) => x + c, 0) / S;
    const sigma2 = sessions.reduce((x, [c]) => x + (c - mu) ** 2, 0) / S;
    const mean = 140 * mu;
    const variance = (140 * sigma2 * (S - 140)) / (S - 1);
    const got = moments(collapsed);
    expect(Math.abs(got.mean - mean)).toBeLessThan(5 * Math.sqrt(variance / B));
    expect(Math.abs(got.variance - variance)).toBeLessThan(5 * variance * Math.sqrt(2 / (B - 1)));
    // Every replicate of f1 holds 140 sessions' decisions: between 140 (all single) and 420 (all of 3).
    for (let r = 0; r < B; r++) {
      const n = (second[2 * r] as number) + (second[2 * r + 1] as number);
      expect(n >= 140 && n <= 420).toBe(true);
    }
  });
});

describe("largest JSD of two-action framings", () => {
  it("is the JSD of the framings with the lowest and highest share, which equals the max over all pairs", () => {
    const counts = [
      [12, 30],
      [40, 2],
      [20, 20],
      [5, 37],
      [33, 9],
    ];
    const cells = counts.map(([c, d], f) => ({
      player: "m",
      game: "pd",
      framing: `f${f}`,
      counts: { cooperate: c as number, defect: d as number },
    }));
    const result = robustnessAnalysis(cells, { cooperativeAction: COOPERATE, bootstrap: 200 });
    const game = result.games[0];
    const maxPair = Math.max(...(game?.pairwise_jsd ?? []).map((p) => p.jsd));
    // Shares 5/42 (f3) and 40/42 (f1) are the extremes.
    const [f3, f1] = [5 / 42, 40 / 42];
    const h = (p: number) => -(p > 0 ? p * Math.log(p) : 0) - (p < 1 ? (1 - p) * Math.log(1 - p) : 0);
    const byHand = h((f3 + f1) / 2) - (h(f3) + h(f1)) / 2;
    expect(maxPair).toBeCloseTo(byHand, 12);
    expect(game?.R.estimate).toBeCloseTo(1 - byHand / Math.LN2, 12);
  });
});
