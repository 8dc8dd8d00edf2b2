import type { McpServer } from "@modelcontextprotocol/server";
import type { ToolContext } from "../../tool-context.js";
import { registerGetMatch } from "./get-match.js";
import { registerJoinMatch } from "./join-match.js";
import { registerListGames } from "./list-games.js";
import { registerNextTrial } from "./next-trial.js";
import { registerStartMatch } from "./start-match.js";
import { registerSubmitMove } from "./submit-move.js";

/** Toolset `play`: what a player needs to take assigned trials and answer rounds (blind unless an
 * operator toolset is on too). */
export function registerPlayToolset(server: McpServer, context: ToolContext): void {
  registerListGames(server, context);
  registerStartMatch(server, context);
  registerSubmitMove(server, context);
  registerGetMatch(server, context);
  registerNextTrial(server, context);
  registerJoinMatch(server, context);
}
