import type { ActionCounts, ActionId } from "../domain/types.js";

/**
 * The analysis input: the action counts of one cell (player × game × framing), optionally split by the
 * MCP session they came from. `clusters`, when given, must sum action by action to `counts`.
 */
export interface CountCell {
  readonly player: string;
  readonly game: string;
  readonly framing: string;
  readonly counts: ActionCounts;
  readonly clusters?: readonly ActionCounts[];
  /**
   * The MCP session of each cluster, in `clusters` order, when known. A session id that appears in several
   * cells of one player makes the bootstrap resample that player's sessions jointly across its cells.
   */
  readonly cluster_ids?: readonly string[];
  /**
   * How many sessions each listed cluster stands for (default 1 each): a record's sessions with identical
   * counts (in every cell of the player, for the joint bootstrap) listed once, with one shared id. The
   * bootstrap draws them as the sessions they stand for, so the analysis is the same as listing each.
   */
  readonly cluster_weights?: readonly number[];
}

/** A short, readable name of a cell for error messages. */
export function cellLabel(cell: Pick<CountCell, "player" | "game" | "framing">): string {
  return `(player '${cell.player}', game '${cell.game}', framing '${cell.framing}')`;
}

/** Throws unless every count is a non-negative integer; returns the number of decisions. */
export function countDecisions(counts: ActionCounts, where: string): number {
  let n = 0;
  for (const [action, count] of Object.entries(counts)) {
    if (!Number.isInteger(count) || count < 0) {
      throw new Error(
        `Count ${String(count)} for action '${action}' in ${where} is invalid; counts must be non-negative integers.`,
      );
    }
    n += count;
  }
  return n;
}

/** Validate one cell (counts, non-empty, clusters summing to counts); returns its number of decisions. */
export function validateCell(cell: CountCell): number {
  const where = `cell ${cellLabel(cell)}`;
  const n = countDecisions(cell.counts, where);
  if (n === 0) {
    throw new Error(
      `Cell ${cellLabel(cell)} has zero decisions; every analysed cell needs at least one decision.`,
    );
  }
  if (cell.cluster_ids !== undefined) {
    const clusters = cell.clusters?.length ?? 0;
    if (cell.cluster_ids.length !== clusters || new Set(cell.cluster_ids).size !== clusters) {
      throw new Error(
        `Cell ${cellLabel(cell)} has ${cell.cluster_ids.length} cluster ids for ${clusters} clusters; give one distinct id per cluster.`,
      );
    }
  }
  if (cell.cluster_weights !== undefined) {
    const clusters = cell.clusters?.length ?? 0;
    const bad = cell.cluster_weights.findIndex((w) => !Number.isInteger(w) || w < 1);
    if (cell.cluster_weights.length !== clusters || bad >= 0) {
      throw new Error(
        `Cell ${cellLabel(cell)} has ${cell.cluster_weights.length} cluster weights for ${clusters} clusters${bad >= 0 ? ` (weight ${cell.cluster_weights[bad]} at ${bad})` : ""}; give one positive integer weight per cluster.`,
      );
    }
  }
  if (cell.clusters !== undefined) {
    const summed: Record<ActionId, number> = {};
    cell.clusters.forEach((session, i) => {
      countDecisions(session, `session ${i} of ${where}`);
      const weight = cell.cluster_weights?.[i] ?? 1;
      for (const [action, count] of Object.entries(session))
        summed[action] = (summed[action] ?? 0) + weight * count;
    });
    for (const action of new Set([...Object.keys(summed), ...Object.keys(cell.counts)])) {
      const inSessions = summed[action] ?? 0;
      const inCell = cell.counts[action] ?? 0;
      if (inSessions !== inCell) {
        throw new Error(
          `The sessions of cell ${cellLabel(cell)} hold ${inSessions} '${action}' decisions but its counts say ${inCell}; clusters must sum to counts.`,
        );
      }
    }
  }
  return n;
}

/** True when some session of the cell made more than one decision (so decisions are not independent). */
export function hasSharedSessions(cell: CountCell): boolean {
  return (cell.clusters ?? []).some((session) => Object.values(session).reduce((s, c) => s + c, 0) > 1);
}
