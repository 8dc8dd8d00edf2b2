// The two sets of numbers every robustness inference starts from: the statistics of the data themselves
// (the point estimates) and of B bootstrap replicates of the data.

import { reportProgress } from "../progress/analysis-progress.js";
import { createCellResampler, drawCellReplicates, isSingleAction } from "../sampling/cell-resampling.js";
import { createBootstrapRng, type UniformSource } from "../sampling/fast-rng.js";
import { drawJointReplicates, jointSessionPlayers } from "../sampling/joint-session-resampling.js";
import type { ClusterSumMethod } from "../sampling/normal-cluster-sums.js";
import type { PlannedCell, RobustnessPlan } from "./robustness-plan.js";
import type { StatisticsEvaluator } from "./robustness-statistics.js";

/** Every statistic of the observed counts (one "replicate": the data), one entry per statistic. */
export function pointEstimates(plan: RobustnessPlan, evaluator: StatisticsEvaluator): Float64Array {
  const point = new Float64Array(evaluator.layout.count);
  evaluator.evaluate(
    (c, _replicates, out) => {
      const pc = plan.cells[c] as PlannedCell;
      out.set(plan.observed.subarray(pc.offset, pc.offset + pc.actions.length));
    },
    1,
    point,
  );
  return point;
}

export interface BootstrapReplicates {
  /** Statistic s of replicate r at s·bootstrap + r. */
  readonly rows: Float64Array;
  /** The players whose sessions span cells, resampled jointly across their cells. */
  readonly jointPlayers: ReadonlySet<string>;
}

/**
 * B bootstrap replicates of every statistic. Each cell's replicates are drawn in one run, cell after cell
 * in plan order, from one seeded stream; the cells of a player whose sessions span cells are instead
 * filled from that player's joint session draws (a stream of its own per player), so one replicate
 * resamples each session once for all cells. `method` says where session sums may be drawn from their
 * normal approximation (normal-cluster-sums).
 */
export function bootstrapReplicates(
  plan: RobustnessPlan,
  evaluator: StatisticsEvaluator,
  seed: number,
  bootstrap: number,
  method: ClusterSumMethod = "exact",
): BootstrapReplicates {
  const rng = createBootstrapRng(seed);
  const joint = jointSessionPlayers(plan);
  const jointCells = new Map<number, Int32Array>();
  const replicatesText = `${bootstrap.toLocaleString("en-US")} replicates`;
  joint.forEach((j, i) => {
    const drawn = drawJointReplicates(j, bootstrap, createBootstrapRng(`${seed}:joint:${j.player}`), method);
    for (const [c, counts] of drawn) jointCells.set(c, counts);
    reportProgress(`joint session bootstrap (${replicatesText})`, i + 1, joint.length, "player");
  });
  let filled = 0;
  const rows = new Float64Array(evaluator.layout.count * bootstrap);
  evaluator.evaluate(
    (c, b, out) => {
      // A joint player's cells come from its session draws; only the others need a cell resampler.
      // A cell that chose one action throughout has nothing the sessions could vary (createCellResampler).
      const pc = plan.cells[c] as PlannedCell;
      const shared = jointCells.get(c);
      if (
        shared === undefined ||
        isSingleAction(plan.observed.subarray(pc.offset, pc.offset + pc.actions.length))
      )
        drawCellReplicates(createCellResampler(pc, method), rng, b, out);
      else {
        out.set(shared);
        refillEmptyReplicates(pc, out, b, createBootstrapRng(`${seed}:empty:${c}`));
      }
      filled += 1;
      reportProgress(`bootstrap (${replicatesText})`, filled, plan.cells.length, "cell");
    },
    bootstrap,
    rows,
  );
  return { rows, jointPlayers: new Set(joint.map((j) => j.player)) };
}

/**
 * A joint replicate in which none of the drawn sessions reached a cell leaves that cell without decisions,
 * and its rates undefined. Such a replicate's cell is drawn from the cell's own sessions instead, as for a
 * player whose sessions stay in their cells: the replicate keeps every cell, and the cells the drawn
 * sessions did reach keep their joint draw.
 */
function refillEmptyReplicates(
  pc: PlannedCell,
  out: Int32Array,
  replicates: number,
  rng: UniformSource,
): void {
  const k = pc.actions.length;
  let resampler: ReturnType<typeof createCellResampler> | null = null;
  const one = new Int32Array(k);
  for (let r = 0; r < replicates; r++) {
    let n = 0;
    for (let a = 0; a < k; a++) n += out[r * k + a] as number;
    if (n > 0) continue;
    resampler ??= createCellResampler(pc);
    drawCellReplicates(resampler, rng, 1, one);
    out.set(one, r * k);
  }
}
