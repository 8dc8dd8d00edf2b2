import type { Caller } from "../play/caller.js";
import type { PlayDeps } from "../play/play-deps.js";
import type { AnalysisResultCache } from "./analysis-call/result-cache.js";
import type { AnalysisRunner } from "./analysis-runner.js";
import type { Toolsets } from "./toolsets.js";

/** What every tool of one connection works with. */
export interface ToolContext {
  readonly deps: PlayDeps;
  readonly caller: Caller;
  /** Which toolsets this server exposes; `blind` = the player's surface. */
  readonly toolsets: Toolsets;
  /** Runs an analysis query over the caller's part of the record (off the event loop when pooled). */
  readonly analysis: AnalysisRunner;
  /** Analysis results of an unchanged record, answered again; null when the cache is off. */
  readonly cache: AnalysisResultCache | null;
}
