import type { MatchRecord } from "./records.js";

/** A matches row as the engines return it: its lists and flags still in their stored form. */
export type MatchRow = Omit<MatchRecord, "action_order" | "opponent_params" | "reveal_horizon"> & {
  action_order: string;
  opponent_params: string;
  reveal_horizon: number;
};

export function toMatchRecord(row: MatchRow): MatchRecord {
  // import_session is only ever set on imported matches: a live match's record does not carry the field.
  const { import_session, ...rest } = row;
  return {
    ...rest,
    ...(import_session === null || import_session === undefined ? {} : { import_session }),
    action_order: JSON.parse(row.action_order) as string[],
    opponent_params: JSON.parse(row.opponent_params) as Record<string, unknown>,
    reveal_horizon: row.reveal_horizon === 1,
  };
}
