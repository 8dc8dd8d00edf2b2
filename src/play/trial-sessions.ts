import { randomUUID } from "node:crypto";
import type { Caller } from "./caller.js";
import type { PlayDeps } from "./play-deps.js";
import { ensureCallerSession } from "./start-match.js";

// A client that plays several trials at once over one connection (`same-game run`, next_trial with
// `concurrent`) gives each trial a fresh context: the trials are independent, not one agent's session.
// Each such trial gets a session of its own (same player, client, transport and principal), and its
// attempts and decisions carry it, so the session bootstrap resamples trials, not the whole run as one.

const trialsByConnection = new WeakMap<Caller, Map<string, Caller>>();

/** The trials this connection holds, taken with `concurrent`. */
export function heldTrials(caller: Caller): string[] {
  return [...(trialsByConnection.get(caller)?.keys() ?? [])];
}

/** Opens the session of one concurrently played trial. */
export function openTrialSession(deps: PlayDeps, caller: Caller, matchId: string, player: string): void {
  const trials = trialsByConnection.get(caller) ?? new Map<string, Caller>();
  trialsByConnection.set(caller, trials);
  if (trials.has(matchId)) return;
  const trialCaller: Caller = { ...caller, sessionId: randomUUID() };
  ensureCallerSession(deps, trialCaller, player);
  trials.set(matchId, trialCaller);
}

/** Who records a move of this match: the trial's own session when it has one, else the connection's. */
export function callerForMatch(caller: Caller, matchId: string): Caller {
  return trialsByConnection.get(caller)?.get(matchId) ?? caller;
}
