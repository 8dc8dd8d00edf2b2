import type { ActionId } from "../../domain/types.js";

/**
 * The comparison's input: how often one group chose one action in one (game, framing) cell, per resampling
 * unit. Rows of one group, cell and unit add up; a group's rows are all it played in the analysed variant.
 */
export interface ComparisonRow {
  /** What is compared: a player, a prompting style, an MCP client, a reported model. */
  readonly group: string;
  readonly game: string;
  readonly framing: string;
  readonly action: ActionId;
  readonly count: number;
  /**
   * The unit that is resampled whole: an MCP session (one conversation, whose decisions are not
   * independent) or one runner trial (a fresh context each); null for imported counts, resampled by decision.
   */
  readonly unit: string | null;
  /**
   * Where a single-decision unit sits in a study's schedule ("study#trial"), else null. Two groups that
   * played the same positions of a cell are resampled position by position together (a paired bootstrap).
   */
  readonly position: string | null;
}

/** A (game, framing) cell of the comparison. */
export interface CellRef {
  readonly game: string;
  readonly framing: string;
  /** The opponent, in a condition of repeated play (compared match by match). */
  readonly opponent?: string;
  /** Its params, where it has any: one opponent id with other params is another condition. */
  readonly opponent_params?: Readonly<Record<string, unknown>>;
}

export const cellKey = (game: string, framing: string): string => JSON.stringify([game, framing]);

/**
 * One group's comparison input laid out flat (the same input as its rows, without an object per row): its
 * cells sorted by game then framing (code point order), and its decisions as (cell, action, count)
 * entries — those of each resampling unit together, in cell then action-text order, unit u's entries
 * [unitStarts[u], unitStarts[u + 1]); then the decisions without a unit (imported counts, a decision
 * without a session, every decision of a group none of whose units made more than one), each counted
 * alone. `entryAction` indexes `actions`. No schedule positions.
 */
export interface GroupTallies {
  readonly group: string;
  readonly cells: readonly CellRef[];
  readonly actions: readonly ActionId[];
  readonly unitStarts: Int32Array;
  readonly entryCell: Int32Array;
  readonly entryAction: Int32Array;
  readonly entryCount: Int32Array;
  /** Entries from this one on have no unit. */
  readonly looseFrom: number;
}

/** The comparison's input: its rows, or every group's tallies (GroupTallies), groups in any order. */
export type ComparisonInput = readonly ComparisonRow[] | { readonly tallies: readonly GroupTallies[] };
