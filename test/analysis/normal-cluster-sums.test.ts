// The fast path of the cluster bootstrap (normal-cluster-sums): a unit of many sessions draws the sum of
// its S resampled session vectors from the normal with the exact bootstrap's mean S·m̄ and covariance S·Σ̂.
// Checked by hand on three session vectors, against the exact draws of the same cells, and on a whole
// analysis: forcing the fast path moves the intervals by less than their Monte Carlo error.
import { describe, expect, it } from "vitest";
import type { CountCell } from "../../src/analysis/count-cells.js";
import { drawWithinSessionPermutations } from "../../src/analysis/invariance/within-session-permutation.js";
import { robustnessAnalysis } from "../../src/analysis/robustness/robustness.js";
import { type PlannedCell, planRobustness } from "../../src/analysis/robustness/robustness-plan.js";
import { createCellResampler, drawCellReplicates } from "../../src/analysis/sampling/cell-resampling.js";
import { createBootstrapRng } from "../../src/analysis/sampling/fast-rng.js";
import {
  drawJointReplicates,
  jointSessionPlayers,
} from "../../src/analysis/sampling/joint-session-resampling.js";
import {
  choleskyFactor,
  clusterSumMethodFromEnv,
  drawNormalCounts,
  drawsNormalSums,
  SessionMoments,
  sumCovarianceFactor,
} from "../../src/analysis/sampling/normal-cluster-sums.js";
import { blockUniforms, fillNormalPairs } from "../../src/analysis/sampling/normal-pairs.js";

const COOPERATE = { pd: "cooperate" } as const;

/** Three sessions (cooperate, defect): (2, 0), (1, 1), (0, 3), each standing for `weight` sessions. */
function threeSessionCell(weight: number): CountCell {
  return {
    player: "p",
    game: "pd",
    framing: "a",
    counts: { cooperate: 3 * weight, defect: 4 * weight },
    clusters: [
      { cooperate: 2, defect: 0 },
      { cooperate: 1, defect: 1 },
      { cooperate: 0, defect: 3 },
    ],
    cluster_ids: ["s1", "s2", "s3"],
    cluster_weights: [weight, weight, weight],
  };
}

/** Mean, variance of each column and covariance of columns 0 and 1 of replicates × k counts. */
function columnMoments(draws: Int32Array, k: number, a = 0, b = 1) {
  const B = draws.length / k;
  let ma = 0;
  let mb = 0;
  for (let r = 0; r < B; r++) {
    ma += draws[r * k + a] as number;
    mb += draws[r * k + b] as number;
  }
  ma /= B;
  mb /= B;
  let va = 0;
  let vb = 0;
  let cab = 0;
  for (let r = 0; r < B; r++) {
    const da = (draws[r * k + a] as number) - ma;
    const db = (draws[r * k + b] as number) - mb;
    va += da * da;
    vb += db * db;
    cab += da * db;
  }
  return { meanA: ma, meanB: mb, varA: va / (B - 1), varB: vb / (B - 1), cov: cab / (B - 1) };
}

describe("the normal approximation of a unit's session sums", () => {
  it("has the exact bootstrap's mean S·m̄ and covariance S·Σ̂: three sessions by hand", () => {
    // m̄ = (1, 4/3); Σ̂ (divided by S = 3): var cooperate 2/3, var defect 14/9, covariance −1.
    // The sum of 3 resampled sessions: mean (3, 4), covariance S·Σ̂ = [[2, −3], [−3, 14/3]].
    const moments = new SessionMoments(2);
    const positions = [0, 1];
    moments.add(positions, [2, 0], 0, 2, 1);
    moments.add(positions, [1, 1], 0, 2, 1);
    moments.add(positions, [0, 3], 0, 2, 1);
    expect(moments.sessions).toBe(3);
    expect(Array.from(moments.sum)).toEqual([3, 4]);
    const L = sumCovarianceFactor(moments);
    // L·Lᵀ = S·Σ̂.
    expect((L[0] as number) ** 2).toBeCloseTo(2, 12);
    expect((L[2] as number) * (L[0] as number)).toBeCloseTo(-3, 12);
    expect((L[2] as number) ** 2 + (L[3] as number) ** 2).toBeCloseTo(14 / 3, 12);
    expect(L[1]).toBe(0);
  });

  it("draws a cell's counts with the exact cluster bootstrap's mean and variance (the sessions ×100)", () => {
    // S = 300: mean (300, 400), var cooperate 200, var defect 1400/3, covariance −300 (rounding adds 1/12).
    const plan = planRobustness(
      [threeSessionCell(100), { ...threeSessionCell(100), framing: "b" }],
      undefined,
      COOPERATE,
    );
    const pc = plan.cells[0] as PlannedCell;
    expect(pc.unit).toBe("session");
    const B = 40_000;
    const fast = createCellResampler(pc, "normal");
    expect(fast.kind).toBe("normal");
    const exact = createCellResampler(pc, "exact");
    expect(exact.kind).toBe("sessions");
    const normalDraws = new Int32Array(2 * B);
    drawCellReplicates(fast, createBootstrapRng(3), B, normalDraws);
    const exactDraws = new Int32Array(2 * B);
    drawCellReplicates(exact, createBootstrapRng(3), B, exactDraws);
    for (const draws of [normalDraws, exactDraws]) {
      const m = columnMoments(draws, 2);
      // Standard errors: mean √(200/B) ≈ 0.07, variance ≈ var·√(2/B) (≈ 1.4 for 200, 3.3 for 467).
      expect(m.meanA).toBeCloseTo(300, 0);
      expect(m.meanB).toBeCloseTo(400, 0);
      expect(Math.abs(m.varA - 200)).toBeLessThan(8);
      expect(Math.abs(m.varB - 1400 / 3)).toBeLessThan(17);
      expect(Math.abs(m.cov + 300)).toBeLessThan(12);
    }
    // Same seed, same numbers.
    const again = new Int32Array(2 * B);
    drawCellReplicates(createCellResampler(pc, "normal"), createBootstrapRng(3), B, again);
    expect(again).toEqual(normalDraws);
  });

  it("draws a spanning player's cells jointly: per-cell moments and the covariance the sessions add", () => {
    // Types over cells a and b (cooperate, defect in a; then in b), 100 sessions each:
    // (1, 0 | 1, 0), (0, 1 | 0, 1), (1, 1 | 0, 0), (0, 0 | 2, 0). S = 400.
    // Cooperate in a: values 1, 0, 1, 0 → mean ½, var ¼ → sum mean 200, var 100.
    // Cooperate in b: values 1, 0, 0, 2 → mean ¾, var (1 + 0 + 0 + 4)/4 − 9/16 = 11/16 → sum mean 300, var 275.
    // Their covariance: E[xy] = ¼, minus ½·¾ → −⅛ → sum covariance −50.
    const types = [
      [1, 0, 1, 0],
      [0, 1, 0, 1],
      [1, 1, 0, 0],
      [0, 0, 2, 0],
    ];
    const cell = (framing: string, offset: number): CountCell => {
      const present = types.map((t, i) => ({ t, i })).filter(({ t }) => t[offset] + t[offset + 1] > 0);
      return {
        player: "p",
        game: "pd",
        framing,
        counts: {
          cooperate: present.reduce((s, { t }) => s + 100 * t[offset], 0),
          defect: present.reduce((s, { t }) => s + 100 * t[offset + 1], 0),
        },
        clusters: present.map(({ t }) => ({ cooperate: t[offset], defect: t[offset + 1] })),
        cluster_ids: present.map(({ i }) => `type ${i}`),
        cluster_weights: present.map(() => 100),
      };
    };
    const plan = planRobustness([cell("a", 0), cell("b", 2)], undefined, COOPERATE);
    const [joint] = jointSessionPlayers(plan);
    if (joint === undefined) throw new Error("expected a joint player");
    expect(joint.sessions).toBe(400);
    const B = 40_000;
    for (const method of ["normal", "exact"] as const) {
      const drawn = drawJointReplicates(joint, B, createBootstrapRng(9), method);
      const a = drawn.get(0) as Int32Array;
      const b = drawn.get(1) as Int32Array;
      const both = new Int32Array(2 * B);
      for (let r = 0; r < B; r++) {
        both[2 * r] = a[2 * r] as number;
        both[2 * r + 1] = b[2 * r] as number;
      }
      const m = columnMoments(both, 2);
      expect(Math.abs(m.meanA - 200)).toBeLessThan(0.3);
      expect(Math.abs(m.meanB - 300)).toBeLessThan(0.5);
      expect(Math.abs(m.varA - 100)).toBeLessThan(4);
      expect(Math.abs(m.varB - 275)).toBeLessThan(10);
      expect(Math.abs(m.cov + 50)).toBeLessThan(5);
    }
  });

  it("is used by default only from 200 sessions with 50 in every cell, and SAME_GAME_CLUSTER_SUMS forces either way", () => {
    expect(drawsNormalSums("auto", 199, 199)).toBe(false);
    expect(drawsNormalSums("auto", 200, 49)).toBe(false);
    expect(drawsNormalSums("auto", 200, 50)).toBe(true);
    expect(drawsNormalSums("exact", 10_000, 10_000)).toBe(false);
    expect(drawsNormalSums("normal", 2, 1)).toBe(true);
    expect(drawsNormalSums("normal", 1, 1)).toBe(false);
    expect(clusterSumMethodFromEnv({})).toBe("auto");
    expect(clusterSumMethodFromEnv({ SAME_GAME_CLUSTER_SUMS: "Normal" })).toBe("normal");
    expect(() => clusterSumMethodFromEnv({ SAME_GAME_CLUSTER_SUMS: "fast" })).toThrow(
      "SAME_GAME_CLUSTER_SUMS=fast is invalid; valid values: auto, exact, normal.",
    );
  });

  it("gives intervals within Monte Carlo error of the exact bootstrap's on a record of 250 sessions per cell", () => {
    // One player, 4 games × 2 framings, 250 sessions of 1–4 decisions in each cell (rates .3 → .5).
    const rng = createBootstrapRng(17);
    const cells: CountCell[] = [];
    for (const game of ["g1", "g2", "g3", "g4"]) {
      for (const [framing, p] of [
        ["a", 0.3],
        ["b", 0.5],
      ] as const) {
        const clusters = Array.from({ length: 250 }, () => {
          const size = 1 + ((rng.next() * 4) | 0);
          let cooperate = 0;
          for (let d = 0; d < size; d++) if (rng.next() < p) cooperate++;
          return { cooperate, defect: size - cooperate };
        });
        cells.push({
          player: "p",
          game,
          framing,
          counts: {
            cooperate: clusters.reduce((s, c) => s + c.cooperate, 0),
            defect: clusters.reduce((s, c) => s + c.defect, 0),
          },
          clusters,
        });
      }
    }
    const cooperativeAction = { g1: "cooperate", g2: "cooperate", g3: "cooperate", g4: "cooperate" };
    const run = (clusterSums: "exact" | "normal" | "auto") =>
      robustnessAnalysis(cells, { cooperativeAction, bootstrap: 4_000, seed: 5, clusterSums });
    const exact = run("exact");
    const normal = run("normal");
    // The default uses the fast path here (250 ≥ 200 sessions in every cell): the same numbers as forcing it.
    expect(run("auto").games.map((g) => g.shift?.ci)).toEqual(normal.games.map((g) => g.shift?.ci));
    for (const [i, game] of exact.games.entries()) {
      const fast = normal.games[i];
      // A shift interval's ends are percentiles of B = 4,000 replicates of a difference with sd ≈ 0.03:
      // their Monte Carlo error is about 0.002; the fast path's ends must be that close.
      const [lo, hi] = game.shift?.ci ?? [Number.NaN, Number.NaN];
      const [flo, fhi] = fast?.shift?.ci ?? [Number.NaN, Number.NaN];
      expect(Math.abs(flo - lo)).toBeLessThan(0.006);
      expect(Math.abs(fhi - hi)).toBeLessThan(0.006);
      expect(Math.abs((fast?.R_bias_corrected ?? 0) - game.R_bias_corrected)).toBeLessThan(0.003);
    }
    const [plo, phi] = exact.pooled.shift?.ci ?? [Number.NaN, Number.NaN];
    const [fplo, fphi] = normal.pooled.shift?.ci ?? [Number.NaN, Number.NaN];
    expect(Math.abs(fplo - plo)).toBeLessThan(0.004);
    expect(Math.abs(fphi - phi)).toBeLessThan(0.004);
  });

  it("draws the within-session permutation null with the exact null's mean and variance", () => {
    // 300 sessions decided twice in framing a (one cooperate, one defect) and once in b (cooperate): a table
    // with margins framings (2, 1), actions (2, 1), n = 3. Relabelled, cooperate in a is 2 (prob. 1/3) or 1:
    // mean 4/3, variance r_a(n − r_a)·c(n − c)/(n²(n − 1)) = 2·1·2·1/18 = 2/9; ×300: mean 400, variance 66.7.
    // Plus 100 one-decision sessions in a (cooperate) and 100 in b (defect), shuffled over the 200 slots:
    // cooperate in a gains mean 50, variance ¼·200/199·(100 − 100·100/200) = 12.56. Together 450 and 79.2.
    const cell = (framing: string, clusters: Record<string, number>[], ids: string[], weights: number[]) => ({
      player: "p",
      game: "pd",
      framing,
      counts: {
        cooperate: clusters.reduce((s, c, i) => s + (c.cooperate ?? 0) * (weights[i] as number), 0),
        defect: clusters.reduce((s, c, i) => s + (c.defect ?? 0) * (weights[i] as number), 0),
      },
      clusters,
      cluster_ids: ids,
      cluster_weights: weights,
    });
    const plan = planRobustness(
      [
        cell("a", [{ cooperate: 1, defect: 1 }, { cooperate: 1 }], ["s", "ua"], [300, 100]),
        cell("b", [{ cooperate: 1 }, { defect: 1 }], ["s", "ub"], [300, 100]),
      ],
      undefined,
      COOPERATE,
    );
    const cells = plan.cells;
    const B = 20_000;
    for (const method of ["normal", "exact"] as const) {
      const [a, b] = drawWithinSessionPermutations(cells, B, createBootstrapRng(4), new Set(), method) as [
        Int32Array,
        Int32Array,
      ];
      // Every framing keeps its decisions: 700 in a, 400 in b.
      for (let r = 0; r < B; r++) {
        expect((a[2 * r] as number) + (a[2 * r + 1] as number)).toBe(700);
        expect((b[2 * r] as number) + (b[2 * r + 1] as number)).toBe(400);
      }
      const m = columnMoments(a, 2);
      expect(Math.abs(m.meanA - 450)).toBeLessThan(0.3);
      expect(Math.abs(m.varA - 79.2)).toBeLessThan(4);
    }
  });

  it("draws four replicates at a time as one after another: the same uniforms, the same counts", () => {
    // Six dimensions, one without variance (a zero column of L), 10 replicates: two blocks of four and
    // two alone. The reference draws replicate by replicate: its normals from the stream in order, then
    // round(mean + L·z) clamped at 0.
    const dims = 6;
    const rng = createBootstrapRng(21);
    const A = Array.from({ length: dims * dims }, () => rng.next() - 0.5);
    const covariance = new Float64Array(dims * dims);
    for (let i = 0; i < dims; i++)
      for (let j = 0; j <= i; j++) {
        if (i === 2 || j === 2) continue;
        let sum = 0;
        for (let k = 0; k < dims; k++) sum += (A[i * dims + k] as number) * (A[j * dims + k] as number);
        covariance[i * dims + j] = 40 * sum;
      }
    const L = choleskyFactor(covariance, dims);
    const mean = Float64Array.from({ length: dims }, (_, i) => 3 + 2 * i);
    const replicates = 10;
    const drawn = new Int32Array(replicates * dims);
    drawNormalCounts(mean, L, createBootstrapRng(8), replicates, drawn);
    const live = [0, 1, 3, 4, 5];
    const nextUniform = blockUniforms(createBootstrapRng(8));
    const normals = new Float64Array(dims + 1);
    const reference = new Int32Array(replicates * dims);
    for (let r = 0; r < replicates; r++) {
      fillNormalPairs(normals, live.length, nextUniform);
      for (let i = 0; i < dims; i++) {
        let x = mean[i] as number;
        live.forEach((j, c) => {
          if (j <= i) x += (L[i * dims + j] as number) * (normals[c] as number);
        });
        reference[r * dims + i] = x > 0.5 ? Math.round(x) : 0;
      }
    }
    expect([...drawn]).toEqual([...reference]);
    expect(new Set(Array.from({ length: replicates }, (_, r) => drawn[r * dims])).size).toBeGreaterThan(3);
  });
});
