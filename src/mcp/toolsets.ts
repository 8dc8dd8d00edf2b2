import { UsageError } from "../usage-error.js";

/**
 * What one server exposes (`serve --toolsets LIST`), like GitHub's MCP server:
 * - `play`: the player's tools — list_games, start_match, submit_move, get_match, next_trial, join_match;
 * - `studies`: register_study;
 * - `analysis`: the read-only analysis tools and the operator's resources (catalog, matches, reports);
 * - `all`: everything.
 * The default is `play` alone, the player's surface, and that surface is blind: nothing on it names a
 * game, a condition or what is measured. Add an operator toolset and the play tools show their full form.
 */
export const TOOLSET_NAMES = ["play", "studies", "analysis"] as const;
export type ToolsetName = (typeof TOOLSET_NAMES)[number];

export const DEFAULT_TOOLSETS: readonly ToolsetName[] = ["play"];

export interface Toolsets {
  readonly play: boolean;
  readonly studies: boolean;
  readonly analysis: boolean;
  /** The player's surface: play alone. Its tools, prompt and results say nothing about the study. */
  readonly blind: boolean;
}

export function toolsetsOf(names: readonly ToolsetName[]): Toolsets {
  const has = (name: ToolsetName) => names.includes(name);
  return {
    play: has("play"),
    studies: has("studies"),
    analysis: has("analysis"),
    blind: !has("studies") && !has("analysis"),
  };
}

/** Parses `--toolsets play,analysis` (or `all`); an unknown name is refused with the valid ones. */
export function parseToolsets(list: string): ToolsetName[] {
  const names = list
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  if (names.length === 0) {
    throw new UsageError(`--toolsets needs at least one of: ${[...TOOLSET_NAMES, "all"].join(", ")}.`);
  }
  const chosen = new Set<ToolsetName>();
  for (const name of names) {
    if (name === "all") {
      for (const n of TOOLSET_NAMES) chosen.add(n);
    } else if ((TOOLSET_NAMES as readonly string[]).includes(name)) chosen.add(name as ToolsetName);
    else {
      throw new UsageError(
        `Unknown toolset "${name}"; toolsets: ${[...TOOLSET_NAMES, "all"].join(", ")} (comma-separated).`,
      );
    }
  }
  return TOOLSET_NAMES.filter((n) => chosen.has(n));
}
