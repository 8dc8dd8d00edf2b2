import type { SourceTool } from "./dashboard-data.js";

/** What the analyst chose above the charts; an empty string means "all". */
export interface Filters {
  player: string;
  /** The group chosen in a comparison by style, client or model (by player the choice is `player`). */
  group: string;
  game: string;
  study: string;
  baseline: string;
  comparison: string;
}

export const NO_FILTERS: Filters = {
  player: "",
  group: "",
  game: "",
  study: "",
  baseline: "",
  comparison: "",
};

/**
 * The arguments of the tool call that re-runs `tool` under the filters, on top of the arguments the
 * model first called it with (bootstrap, seed, …). A filter the tool cannot take is applied in the view.
 */
export function toolArguments(
  tool: SourceTool,
  original: Record<string, unknown>,
  filters: Filters,
): Record<string, unknown> {
  const args: Record<string, unknown> = { ...original };
  const set = (key: string, value: unknown) => {
    if (value === undefined) delete args[key];
    else args[key] = value;
  };
  const pair = filters.baseline && filters.comparison ? [filters.baseline, filters.comparison] : undefined;
  set("study_id", filters.study || undefined);
  set("framings", pair);
  if (tool !== "report") set("games", filters.game ? [filters.game] : undefined);
  // A comparison needs two groups: a chosen one marks its rows and pairs in the view instead.
  if (tool !== "report" && tool !== "compare") set("players", filters.player ? [filters.player] : undefined);
  return args;
}

/** Whether a row survives the player and game filters (for the tools that take neither). */
export function passes(filters: Filters, row: { player: string | null; game: string | null }): boolean {
  return (
    (!filters.player || row.player === null || row.player === filters.player) &&
    (!filters.game || row.game === null || row.game === filters.game)
  );
}
