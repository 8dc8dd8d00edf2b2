import type { Caller } from "../play/caller.js";
import type { PlayDeps } from "../play/play-deps.js";

/** What every tool of one connection works with. */
export interface ToolContext {
  readonly deps: PlayDeps;
  readonly caller: Caller;
}
