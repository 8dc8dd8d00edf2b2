import type { SourceTool } from "./dashboard-data.js";

/**
 * What the analyst chose above the charts. `null` is a filter the analyst has not touched: the model's own
 * argument stands (its players, games, framings or study). An empty string is "all", chosen on purpose:
 * it drops the model's restriction. Any other value is the one name chosen.
 */
export interface Filters {
  player: string | null;
  /** The group chosen in a comparison by style, client or model (by player the choice is `player`). */
  group: string;
  game: string | null;
  study: string | null;
  baseline: string | null;
  comparison: string | null;
  /**
   * repeated_metrics' framings: a plain filter list, any number of them (`[]` is all, chosen on purpose),
   * where the other tools take a baseline and a comparison.
   */
  framings: readonly string[] | null;
}

export const UNTOUCHED: Filters = {
  player: null,
  group: "",
  game: null,
  study: null,
  baseline: null,
  comparison: null,
  framings: null,
};

/** What the model's own arguments chose, filter by filter: what an untouched filter shows and keeps. */
export interface Asked {
  players: string[];
  games: string[];
  study: string;
  /** The model's framings, baseline first (a tool compares the first two, the rest widen R). */
  baseline: string[];
  comparison: string[];
  /** repeated_metrics' framings, a plain list (empty for the tools that compare framings). */
  framings: string[];
}

/** Which filters become arguments of each tool; the others only change what the view shows. */
function takes(tool: SourceTool): { players: boolean; games: boolean; framingList: boolean } {
  // report takes neither; a comparison needs two groups, so its chosen group marks rows in the view instead.
  return {
    players: tool === "robustness" || tool === "repeated_metrics",
    games: tool !== "report",
    // repeated_metrics filters on framings; the others compare a baseline with a comparison framing.
    framingList: tool === "repeated_metrics",
  };
}

const names = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];

export function askedBy(tool: SourceTool, original: Record<string, unknown>): Asked {
  const framings = names(original.framings);
  const list = takes(tool).framingList;
  return {
    players: takes(tool).players ? names(original.players) : [],
    games: takes(tool).games ? names(original.games) : [],
    study: typeof original.study_id === "string" ? original.study_id : "",
    baseline: list ? [] : framings.slice(0, 1),
    comparison: list ? [] : framings.slice(1),
    framings: list ? framings : [],
  };
}

/**
 * The framings the filters ask for: the analyst's choice of either end of the pair, the model's for an end
 * left untouched. `undefined` asks for the tool's default pair; `null` is half a pair (the view asks for
 * the other half instead of calling).
 */
export function framingsOf(asked: Asked, filters: Filters): string[] | undefined | null {
  const chosen = (filter: string | null, fromModel: string[]) =>
    filter === null ? fromModel : filter === "" ? [] : [filter];
  const baseline = chosen(filters.baseline, asked.baseline);
  const comparison = chosen(filters.comparison, asked.comparison);
  if (baseline.length === 0 && comparison.length === 0) return undefined;
  if (baseline.length === 0 || comparison.length === 0) return null;
  return [...baseline, ...comparison];
}

/**
 * The arguments of the tool call that re-runs `tool` under the filters, on top of the arguments the
 * model first called it with (bootstrap, seed, players, framings, study…): an untouched filter leaves the
 * model's argument as it was. A filter the tool cannot take is applied in the view. `null` when the
 * framing pair is half chosen.
 */
export function toolArguments(
  tool: SourceTool,
  original: Record<string, unknown>,
  filters: Filters,
): Record<string, unknown> | null {
  const args: Record<string, unknown> = { ...original };
  const set = (key: string, filter: string | null, value: unknown) => {
    if (filter === null) return;
    if (filter === "") delete args[key];
    else args[key] = value;
  };
  const asked = askedBy(tool, original);
  const framings = framingsOf(asked, filters);
  if (framings === null) return null;
  set("study_id", filters.study, filters.study);
  if (takes(tool).framingList) {
    if (filters.framings !== null) {
      if (filters.framings.length === 0) delete args.framings;
      else args.framings = [...filters.framings];
    }
  } else if (filters.baseline !== null || filters.comparison !== null) {
    set("framings", framings ? "chosen" : "", framings);
  }
  if (takes(tool).games) set("games", filters.game, [filters.game]);
  if (takes(tool).players) set("players", filters.player, [filters.player]);
  return args;
}

/**
 * A framing the filters name twice in the pair (the same baseline and comparison, or a comparison that is
 * one of the model's other framings), which robustness, report and compare refuse: the view says so
 * instead of asking. `null` when every framing is distinct (or the tool takes a plain list).
 */
export function framingTwice(tool: SourceTool, args: Record<string, unknown>): string | null {
  if (takes(tool).framingList) return null;
  const framings = names(args.framings);
  return framings.find((f, i) => framings.indexOf(f) !== i) ?? null;
}

/** Whether a row survives the player and game filters (for the tools that take neither). */
export function passes(filters: Filters, row: { player: string | null; game: string | null }): boolean {
  return (
    (!filters.player || row.player === null || row.player === filters.player) &&
    (!filters.game || row.game === null || row.game === filters.game)
  );
}
