// The same analysis answers the CLI and the MCP tools, and a refusal names the filter it refuses: a shell
// user reads `--framings`, a model calling a tool reads its argument `framings` (a flag name in a tool
// result points it at an option it has no way to pass).

/** Where an analysis was asked from: its refusals name that surface's filters. */
export type FilterSurface = "cli" | "mcp";

/** The names of the filter lists an analysis refuses values of. */
export interface FilterNames {
  readonly players: string;
  readonly games: string;
  readonly framings: string;
}

const CLI_FLAGS: FilterNames = { players: "--players", games: "--games", framings: "--framings" };
const TOOL_ARGUMENTS: FilterNames = { players: "players", games: "games", framings: "framings" };

/** The CLI's flags unless the analysis was asked for over MCP. */
export function filterNames(surface: FilterSurface | undefined): FilterNames {
  return surface === "mcp" ? TOOL_ARGUMENTS : CLI_FLAGS;
}

/** A query field: which surface asked (the CLI when absent). Plain data, so it crosses to a worker. */
export interface AskedFrom {
  /** The MCP server sets "mcp" on every analysis it runs; the CLI leaves it out. */
  surface?: FilterSurface;
}
