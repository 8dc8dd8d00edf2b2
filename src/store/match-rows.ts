import type { MatchRecord } from "./records.js";

/** A matches row as the engines return it: its lists and flags still in their stored form. */
export type MatchRow = Omit<MatchRecord, "action_order" | "opponent_params" | "reveal_horizon"> & {
  action_order: string;
  opponent_params: string;
  reveal_horizon: number;
};

export function toMatchRecord(row: MatchRow): MatchRecord {
  return {
    ...row,
    action_order: JSON.parse(row.action_order) as string[],
    opponent_params: JSON.parse(row.opponent_params) as Record<string, unknown>,
    reveal_horizon: row.reveal_horizon === 1,
  };
}
