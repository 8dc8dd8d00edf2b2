// The permutation distribution of the robustness statistics under invariance (SPEC §4 "inference for
// invariance"): if every framing of a (player, game) shares one distribution, the framing labels are
// exchangeable, so reassigning the pooled decisions (or whole sessions) to framings at random, keeping each
// framing's size, draws from the null distribution of any statistic of the counts.
import type { UniformSource } from "./fast-rng.js";
import type { PlannedCell, RobustnessPlan } from "./robustness-plan.js";
import type { FillCell } from "./robustness-statistics.js";

/** What one (player, game) reshuffles: its items (decisions or sessions) and how many each framing gets. */
interface Pool {
  readonly k: number;
  /** Item i's counts at items[i·k .. i·k + k): one decision is a unit vector, one session its counts. */
  readonly items: Int32Array;
  readonly perFraming: readonly number[];
}

function poolOf(cells: readonly PlannedCell[]): Pool {
  const k = (cells[0] as PlannedCell).actions.length;
  const rows: number[][] = [];
  const perFraming = cells.map((pc) => {
    const vector = (counts: Readonly<Record<string, number>>): number[] =>
      pc.actions.map((a) => counts[a] ?? 0);
    if (pc.unit === "session" && pc.cell.clusters !== undefined) {
      const sessions = pc.cell.clusters.map(vector).filter((v) => v.some((c) => c > 0));
      rows.push(...sessions);
      return sessions.length;
    }
    vector(pc.cell.counts).forEach((count, j) => {
      for (let d = 0; d < count; d++) rows.push(Array.from({ length: k }, (_, i) => (i === j ? 1 : 0)));
    });
    return pc.n;
  });
  return { k, items: Int32Array.from(rows.flat()), perFraming };
}

/**
 * A `FillCell` that writes permutation replicates instead of bootstrap ones. The evaluator asks for the
 * cells of one (player, game) one after another; on the first, all its framings' replicates are drawn at
 * once (one shuffle per replicate serves every framing) and kept until the others are read.
 */
export function permutationFill(plan: RobustnessPlan, rng: UniformSource): FillCell {
  const unitOfCell = new Map<number, { unit: number; framing: number }>();
  plan.units.forEach((u, i) => {
    u.cells.forEach((c, f) => {
      unitOfCell.set(c, { unit: i, framing: f });
    });
  });
  let current = -1;
  let buffers: Int32Array[] = [];
  return (cell, replicates, out) => {
    const { unit, framing } = unitOfCell.get(cell) as { unit: number; framing: number };
    if (unit !== current) {
      const cells = (plan.units[unit]?.cells ?? []).map((c) => plan.cells[c] as PlannedCell);
      const pool = poolOf(cells);
      const binaryPair = pool.k === 2 && cells.length === 2 && cells.every((c) => c.unit === "decision");
      buffers = binaryPair
        ? drawHypergeometric(pool, replicates, rng)
        : drawPermutations(pool, replicates, rng);
      current = unit;
    }
    out.set(buffers[framing] as Int32Array);
  };
}

/** `replicates` random reassignments of the pool's items to framings (Fisher–Yates), summed per framing. */
function drawPermutations(pool: Pool, replicates: number, rng: UniformSource): Int32Array[] {
  const { k, items, perFraming } = pool;
  const total = perFraming.reduce((s, m) => s + m, 0);
  const order = Int32Array.from({ length: total }, (_, i) => i);
  const out = perFraming.map(() => new Int32Array(replicates * k));
  for (let r = 0; r < replicates; r++) {
    for (let i = total - 1; i > 0; i--) {
      const j = (rng.next() * (i + 1)) | 0;
      const t = order[i] as number;
      order[i] = order[j] as number;
      order[j] = t;
    }
    let next = 0;
    perFraming.forEach((m, f) => {
      const target = out[f] as Int32Array;
      for (let s = 0; s < m; s++) {
        const row = (order[next++] as number) * k;
        for (let a = 0; a < k; a++)
          target[r * k + a] = (target[r * k + a] as number) + (items[row + a] as number);
      }
    });
  }
  return out;
}

/**
 * The same null distribution for the common case of two framings, two actions and single decisions,
 * without shuffling: the first framing's count of action 0 is hypergeometric (N decisions of which K chose
 * action 0, n₀ drawn), so one uniform per replicate inverts its CDF (computed once, in logs).
 */
function drawHypergeometric(pool: Pool, replicates: number, rng: UniformSource): Int32Array[] {
  const [n0 = 0, n1 = 0] = pool.perFraming;
  const total = n0 + n1;
  let chose0 = 0;
  for (let i = 0; i < total; i++) chose0 += pool.items[2 * i] as number;
  const lo = Math.max(0, n0 - (total - chose0));
  const hi = Math.min(n0, chose0);
  // log P(x + 1)/P(x) = log((K − x)(n₀ − x)) − log((x + 1)(N − K − n₀ + x + 1)).
  const logPmf = new Float64Array(hi - lo + 1);
  for (let x = lo; x < hi; x++) {
    logPmf[x - lo + 1] =
      (logPmf[x - lo] as number) +
      Math.log((chose0 - x) * (n0 - x)) -
      Math.log((x + 1) * (total - chose0 - n0 + x + 1));
  }
  const peak = Math.max(...logPmf);
  const cdf = new Float64Array(logPmf.length);
  let sum = 0;
  logPmf.forEach((l, i) => {
    sum += Math.exp(l - peak);
    cdf[i] = sum;
  });
  for (let i = 0; i < cdf.length; i++) cdf[i] = (cdf[i] as number) / sum;
  const first = new Int32Array(replicates * 2);
  const second = new Int32Array(replicates * 2);
  for (let r = 0; r < replicates; r++) {
    const u = rng.next();
    let a = 0;
    let b = cdf.length - 1;
    while (a < b) {
      const m = (a + b) >> 1;
      if ((cdf[m] as number) > u) b = m;
      else a = m + 1;
    }
    const x = lo + a;
    first[2 * r] = x;
    first[2 * r + 1] = n0 - x;
    second[2 * r] = chose0 - x;
    second[2 * r + 1] = n1 - (chose0 - x);
  }
  return [first, second];
}
