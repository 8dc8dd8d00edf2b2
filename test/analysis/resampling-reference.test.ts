// The fast resampling loops must draw exactly what the straightforward loops they replaced drew,
// for the same seed. The reference implementations below are those loops, kept here as written before
// (one uniform per draw in stream order, one multiplicity vector per replicate, one index shuffle per
// replicate); every buffer must be equal to the last integer.
import { describe, expect, it } from "vitest";
import type { CountCell } from "../../src/analysis/count-cells.js";
import { permutationFill } from "../../src/analysis/invariance/invariance-permutation.js";
import { type PlannedCell, planRobustness } from "../../src/analysis/robustness/robustness-plan.js";
import { createCellResampler, drawCellReplicates } from "../../src/analysis/sampling/cell-resampling.js";
import {
  drawMultiplicities,
  type MultiplicitySampler,
} from "../../src/analysis/sampling/cluster-multiplicities.js";
import { createBootstrapRng, type UniformSource } from "../../src/analysis/sampling/fast-rng.js";
import {
  drawJointReplicates,
  jointSessionPlayers,
} from "../../src/analysis/sampling/joint-session-resampling.js";
import {
  binaryUnitJsd,
  cellEntropies,
  type EntropyTable,
  entropyTable,
  entropyTerm,
  pairJsd,
} from "../../src/domain/divergence.js";

const COOPERATE = { pd: "cooperate", sh: "cooperate" } as const;
const B = 3_000;

/** Reference: one multiplicity vector per replicate, then Σ_t m_t · counts_t. */
function referenceClusterSums(
  sampler: MultiplicitySampler,
  table: Int32Array,
  k: number,
  rng: UniformSource,
): Int32Array {
  const out = new Int32Array(B * k);
  const drawn = new Int32Array(sampler.types);
  for (let r = 0; r < B; r++) {
    drawMultiplicities(sampler, rng, drawn);
    for (let t = 0; t < sampler.types; t++)
      for (let j = 0; j < k; j++)
        out[r * k + j] = (out[r * k + j] as number) + (drawn[t] as number) * (table[t * k + j] as number);
  }
  return out;
}

/** Reference: a Fisher–Yates shuffle of item indices per replicate (one `next()` per swap), summed per framing. */
function referencePermutations(items: number[][], perFraming: number[], rng: UniformSource): Int32Array[] {
  const k = (items[0] as number[]).length;
  const total = items.length;
  const order = Array.from({ length: total }, (_, i) => i);
  const out = perFraming.map(() => new Int32Array(B * k));
  for (let r = 0; r < B; r++) {
    for (let i = total - 1; i > 0; i--) {
      const j = (rng.next() * (i + 1)) | 0;
      [order[i], order[j]] = [order[j] as number, order[i] as number];
    }
    let next = 0;
    perFraming.forEach((m, f) => {
      for (let s = 0; s < m; s++) {
        const row = items[order[next++] as number] as number[];
        for (let a = 0; a < k; a++) (out[f] as Int32Array)[r * k + a] += row[a] as number;
      }
    });
  }
  return out;
}

/** A pseudo-random session cell: `sessions` sessions of 1–5 decisions, listed one by one with ids. */
function sessionCell(
  player: string,
  game: string,
  framing: string,
  sessions: number,
  seed: number,
): CountCell {
  const rng = createBootstrapRng(seed);
  const clusters: Record<string, number>[] = [];
  const ids: string[] = [];
  let cooperate = 0;
  let defect = 0;
  for (let s = 0; s < sessions; s++) {
    const size = 1 + ((rng.next() * 5) | 0);
    const c = (rng.next() * (size + 1)) | 0;
    clusters.push({ cooperate: c, defect: size - c });
    ids.push(`${player}-${game}-${framing}-${s}`);
    cooperate += c;
    defect += size - c;
  }
  return { player, game, framing, counts: { cooperate, defect }, clusters, cluster_ids: ids };
}

describe("fast resampling loops draw what the reference loops drew", () => {
  it("cell sessions (direct mode): the same counts as drawing multiplicities replicate by replicate", () => {
    const cell = sessionCell("m", "pd", "a", 30, 5);
    const plan = planRobustness([cell, { ...cell, framing: "b" }], undefined, COOPERATE);
    const resampler = createCellResampler(plan.cells[0] as PlannedCell);
    if (resampler.kind !== "sessions") throw new Error(`expected a session resampler, got ${resampler.kind}`);
    expect(resampler.multiplicities.mode).toBe("direct");
    const fast = new Int32Array(B * 2);
    drawCellReplicates(resampler, createBootstrapRng(21), B, fast);
    const reference = referenceClusterSums(
      resampler.multiplicities,
      resampler.table,
      2,
      createBootstrapRng(21),
    );
    expect(fast).toEqual(reference);
    // Counts add up to a resampled number of sessions' decisions; the first replicate by hand is the sum
    // of the sessions ⌊u·S⌋ picks, which the reference computes; it is not all of one session.
    expect(
      new Set(Array.from({ length: B }, (_, r) => (fast[2 * r] as number) + (fast[2 * r + 1] as number)))
        .size,
    ).toBeGreaterThan(5);
  });

  it("permutation of sessions: the same framing counts as shuffling item indices with one uniform per swap", () => {
    // Three framings of sessions (not single decisions): the Fisher–Yates path.
    const cells = ["a", "b", "c"].map((f, i) => sessionCell("m", "pd", f, 7 + 3 * i, 40 + i));
    const plan = planRobustness(cells, undefined, COOPERATE);
    const fill = permutationFill(plan, createBootstrapRng("9:permutation"), true);
    const fast = (plan.units[0]?.cells ?? []).map((c) => {
      const out = new Int32Array(B * 2);
      fill(c, B, out);
      return out;
    });
    const items = cells.flatMap((cell) =>
      (cell.clusters ?? []).map((s) => [s.cooperate ?? 0, s.defect ?? 0]),
    );
    const reference = referencePermutations(
      items,
      cells.map((cell) => cell.clusters?.length ?? 0),
      createBootstrapRng("9:permutation"),
    );
    expect(fast).toEqual(reference);
    // Sizes are kept: every replicate of framing a holds 7 sessions, and the pool's totals are conserved.
    const total = cells.reduce((s, c) => s + (c.counts.cooperate ?? 0), 0);
    for (let r = 0; r < B; r++) {
      expect(fast.reduce((s, f) => s + (f[2 * r] as number), 0)).toBe(total);
    }
  });

  it("joint sessions: the same counts in every cell as adding multiplicities cell by cell", () => {
    // Sessions that span the player's cells (ids shared across games and framings).
    const rng = createBootstrapRng(77);
    const cells: CountCell[] = [];
    const keys = ["pd:a", "pd:b", "sh:a", "sh:b"];
    const perCell = new Map(
      keys.map((key) => [key, { clusters: [] as Record<string, number>[], ids: [] as string[] }]),
    );
    for (let s = 0; s < 60; s++) {
      const visits = 1 + ((rng.next() * 3) | 0);
      const seen = new Set<string>();
      for (let v = 0; v < visits; v++) {
        const key = keys[(rng.next() * keys.length) | 0] as string;
        if (seen.has(key)) continue;
        seen.add(key);
        const c = (rng.next() * 3) | 0;
        const entry = perCell.get(key) as { clusters: Record<string, number>[]; ids: string[] };
        entry.clusters.push({ cooperate: c, defect: 2 - c });
        entry.ids.push(`s${s}`);
      }
    }
    for (const [key, { clusters, ids }] of perCell) {
      const [game, framing] = key.split(":") as [string, string];
      const cooperate = clusters.reduce((x, c) => x + (c.cooperate ?? 0), 0);
      const defect = clusters.reduce((x, c) => x + (c.defect ?? 0), 0);
      cells.push({ player: "j", game, framing, counts: { cooperate, defect }, clusters, cluster_ids: ids });
    }
    const plan = planRobustness(cells, undefined, COOPERATE);
    const [joint] = jointSessionPlayers(plan);
    if (joint === undefined) throw new Error("expected a joint player");
    const fast = drawJointReplicates(joint, B, createBootstrapRng(5));
    // Reference: multiplicities per replicate, then each cell's present types one by one.
    const reference = new Map<number, Int32Array>();
    for (const [c, cell] of joint.cells) reference.set(c, new Int32Array(B * cell.k));
    const drawn = new Int32Array(joint.multiplicities.types);
    const stream = createBootstrapRng(5);
    for (let r = 0; r < B; r++) {
      drawMultiplicities(joint.multiplicities, stream, drawn);
      for (const [c, cell] of joint.cells) {
        const out = reference.get(c) as Int32Array;
        cell.types.forEach((t, i) => {
          for (let a = 0; a < cell.k; a++)
            out[r * cell.k + a] += (drawn[t] as number) * (cell.counts[i * cell.k + a] as number);
        });
      }
    }
    expect(fast).toEqual(reference);
  });
});

/**
 * Reference: the largest two-action JSD as computed before the one-pass kernel, from every framing's
 * entropy row (`cellEntropies`): the framings with the lowest and highest share (first one on ties).
 */
function referenceMaxJsd(
  counts: Int32Array[],
  entropy: Float64Array[],
  sizes: Int32Array[],
  mixture: EntropyTable | null,
): Float64Array {
  const half = mixture === null ? -1 : mixture.m / 2;
  return Float64Array.from({ length: B }, (_, r) => {
    let lo = 0;
    let hi = 0;
    for (let f = 1; f < counts.length; f++) {
      const x = (counts[f] as Int32Array)[2 * r] as number;
      const n = (sizes[f] as Int32Array)[r] as number;
      const share = (g: number) => [
        (counts[g] as Int32Array)[2 * r] as number,
        (sizes[g] as Int32Array)[r] as number,
      ];
      const [xLo, nLo] = share(lo) as [number, number];
      const [xHi, nHi] = share(hi) as [number, number];
      if (x * nLo < xLo * n) lo = f;
      else if (x * nHi > xHi * n) hi = f;
    }
    const a = (counts[lo] as Int32Array)[2 * r] as number;
    const b = (counts[hi] as Int32Array)[2 * r] as number;
    const na = (sizes[lo] as Int32Array)[r] as number;
    const nb = (sizes[hi] as Int32Array)[r] as number;
    let hm: number;
    if (mixture !== null && na === half && nb === half) hm = mixture.binary[a + b] as number;
    else {
      const share = (a / na + b / nb) / 2;
      hm = entropyTerm(share) + entropyTerm(1 - share);
    }
    const h = ((entropy[lo] as Float64Array)[r] as number) + ((entropy[hi] as Float64Array)[r] as number);
    return Math.min(Math.max(hm - h / 2, 0), Math.LN2);
  });
}

describe("the one-pass two-action JSD kernel computes what the per-framing rows computed", () => {
  // "shares tied across sizes": 0, ½ or all of 2, 4 or 8 decisions, so equal shares of different sizes
  // (1/2, 2/4) meet in most replicates and the first framing of equal shares must be the one taken;
  // "sizes past the rank table": 240–300 decisions, where shares are compared by cross-multiplication.
  for (const kind of [
    "fixed sizes",
    "session sizes",
    "shares tied across sizes",
    "sizes past the rank table",
  ] as const) {
    it(`largest and planned-pair JSD of 11 framings, ${kind}: equal to the last bit`, () => {
      const rng = createBootstrapRng(kind);
      const F = 11;
      const n = 20;
      // Framing f cooperates more as f grows; sizes n, or 10–30 around the table's n (session resampling).
      const counts = Array.from({ length: F }, (_, f) => {
        const row = new Int32Array(2 * B);
        for (let r = 0; r < B; r++) {
          const size =
            kind === "fixed sizes"
              ? n
              : kind === "session sizes"
                ? 10 + ((rng.next() * 21) | 0)
                : kind === "shares tied across sizes"
                  ? 2 << ((rng.next() * 3) | 0)
                  : 240 + ((rng.next() * 61) | 0);
          const x =
            kind === "shares tied across sizes"
              ? (((rng.next() * 3) | 0) * size) / 2
              : Math.min(size, (rng.next() * (size + 1) * (0.3 + f / 20)) | 0);
          row[2 * r] = x;
          row[2 * r + 1] = size - x;
        }
        return row;
      });
      const tables = counts.map(() => entropyTable(n));
      const entropy = counts.map(() => new Float64Array(B));
      const sizes = counts.map(() => new Int32Array(B));
      counts.forEach((c, f) => {
        cellEntropies(c, 2, tables[f] as EntropyTable, B, entropy[f] as Float64Array, sizes[f] as Int32Array);
      });
      const mixture = entropyTable(2 * n);
      const planned = new Float64Array(B);
      pairJsd(
        counts[0] as Int32Array,
        counts[1] as Int32Array,
        entropy[0] as Float64Array,
        entropy[1] as Float64Array,
        sizes[0] as Int32Array,
        sizes[1] as Int32Array,
        2,
        mixture,
        B,
        planned,
      );
      const fastMax = new Float64Array(B);
      const fastPlanned = new Float64Array(B);
      const sizes0 = new Int32Array(B);
      const sizes1 = new Int32Array(B);
      binaryUnitJsd(counts, tables, mixture, mixture, B, fastMax, fastPlanned, sizes0, sizes1);
      expect(fastMax).toEqual(referenceMaxJsd(counts, entropy, sizes, mixture));
      expect(fastPlanned).toEqual(planned);
      expect(sizes0).toEqual(sizes[0]);
      // The largest JSD is the largest over all 55 pairs (to rounding), and at least the planned pair's.
      for (let r = 0; r < B; r += 97) {
        let best = 0;
        for (let f = 0; f < F; f++)
          for (let g = f + 1; g < F; g++) {
            const p = (c: Int32Array) => [
              (c[2 * r] as number) / ((c[2 * r] as number) + (c[2 * r + 1] as number)),
            ];
            const [pf] = p(counts[f] as Int32Array) as [number];
            const [pg] = p(counts[g] as Int32Array) as [number];
            const m = (pf + pg) / 2;
            const jsd =
              entropyTerm(m) +
              entropyTerm(1 - m) -
              (entropyTerm(pf) + entropyTerm(1 - pf) + entropyTerm(pg) + entropyTerm(1 - pg)) / 2;
            best = Math.max(best, jsd);
          }
        expect(fastMax[r]).toBeCloseTo(best, 12);
        expect(fastMax[r] as number).toBeGreaterThanOrEqual((fastPlanned[r] as number) - 1e-12);
      }
    });
  }
});
