// A generator of realistic one-shot records for the scale benchmark: 20 players × 4 dilemmas ×
// 11 framings (880 cells, 80 (player, game) units, 55 framing pairs), played in MCP sessions of varying
// length, written through the Store (the same statements, and so the same write-time aggregates, as live
// play) in one transaction. Seeded: the same (decisions, seed) gives the same record up to its random ids.
//
// Three kinds of players, so every resampling path of the analysis is exercised at scale:
// - "solo" players open one session per decision (resampled by decision);
// - "cell" players play several trials of one cell per session (sessions resampled within the cell);
// - "joint" players keep a session across games and framings (the joint cluster bootstrap).
// The "short-spanning" shape instead makes every player keep short sessions (2–5 decisions) across
// random cells: many short sessions spanning cells, nearly all of them distinct.
// Attempts and model calls are not written: no analysis reads them for one-shot play.
import { randomBytes } from "node:crypto";
import { createRng } from "../../src/domain/rng.js";
import type { MatchRecord } from "../../src/store/records.js";
import type { Store } from "../../src/store/store.js";

export const SCALE_GAMES = ["harmony", "prisoners-dilemma", "snowdrift", "stag-hunt"] as const;
export const SCALE_FRAMINGS = [
  "abstract-matrix",
  "business",
  "competitive-narrative",
  "cooperative-narrative",
  "diplomatic",
  "environmental",
  "friend-sharing",
  "neutral-narrative",
  "relabeled",
  "role",
  "team",
] as const;
export const SCALE_PLAYERS = 20;

type PlayerKind = "solo" | "cell" | "joint" | "short-joint";

/** "mixed": the three kinds of players below; "short-spanning": every player's sessions span cells, 2–5 decisions each. */
export type RecordShape = "mixed" | "short-spanning";
export const RECORD_SHAPES: readonly RecordShape[] = ["mixed", "short-spanning"];

/** Players 0–6 solo, 7–13 cell, 14–19 joint. */
export function playerKind(p: number): PlayerKind {
  return p < 7 ? "solo" : p < 14 ? "cell" : "joint";
}

export interface GeneratedRecord {
  decisions: number;
  sessions: number;
  players: number;
  cells: number;
}

/**
 * Writes `decisions` one-shot decisions into `store`, spread evenly over the players and, within a player,
 * over its 44 cells. Session lengths: 1 for solo players; 1–8 (mean 4.5) for cell players; for joint
 * players mostly 1–3 decisions with one session in ten running 10–60, across random cells.
 */
export function generateRecord(
  store: Store,
  decisions: number,
  seed = 1,
  shape: RecordShape = "mixed",
): GeneratedRecord {
  let sessions = 0;
  let written = 0;
  let clock = Date.UTC(2026, 0, 1);
  const at = () => {
    clock += 7;
    return new Date(clock).toISOString();
  };
  let session: string | null = null;
  store.transaction(() => {
    for (const d of scaleDecisions(decisions, seed, shape)) {
      if (d.session !== session) {
        session = d.session;
        store.saveSession({
          id: session,
          player: d.player,
          client_name: "scale-bench",
          client_version: "1",
          transport: "stdio",
          principal: "local",
          started_at: at(),
        });
        sessions++;
      }
      writeDecision(store, { ...d, at: at() });
      written++;
    }
  });
  return {
    decisions: written,
    sessions,
    players: SCALE_PLAYERS,
    cells: SCALE_PLAYERS * SCALE_GAMES.length * SCALE_FRAMINGS.length,
  };
}

/**
 * The decisions of a scale record in the order they are played, session after session (what
 * `generateRecord` writes; the in-memory benchmark analyses them without a record).
 */
export function* scaleDecisions(
  decisions: number,
  seed = 1,
  shape: RecordShape = "mixed",
): Generator<Omit<GeneratedDecision, "at">> {
  const rng = createRng(`scale:${seed}`);
  const cellsPerPlayer = SCALE_GAMES.length * SCALE_FRAMINGS.length;
  const perPlayer = Math.floor(decisions / SCALE_PLAYERS);
  // The cooperation rate of a cell: the player's own level, moved by the framing (a story-swayed agent).
  const rate = (p: number, g: number, f: number): number =>
    Math.min(0.97, Math.max(0.03, 0.15 + 0.035 * p + 0.1 * g + (f % 3 === 0 ? 0.2 : f % 3 === 1 ? -0.1 : 0)));
  for (let p = 0; p < SCALE_PLAYERS; p++) {
    const player = `scale-model-${String(p).padStart(2, "0")}`;
    const kind: PlayerKind = shape === "short-spanning" ? "short-joint" : playerKind(p);
    const total = p === SCALE_PLAYERS - 1 ? decisions - perPlayer * (SCALE_PLAYERS - 1) : perPlayer;
    let left = total;
    let cellCursor = 0;
    while (left > 0) {
      const length = Math.min(left, sessionLength(kind, rng));
      const session = randomBytes(16).toString("hex");
      // Cell players stay in one cell per session; joint players wander; solo players play one decision.
      const home = cellCursor++ % cellsPerPlayer;
      for (let d = 0; d < length; d++) {
        const cell = kind === "joint" || kind === "short-joint" ? Math.floor(rng() * cellsPerPlayer) : home;
        const g = Math.floor(cell / SCALE_FRAMINGS.length);
        const f = cell % SCALE_FRAMINGS.length;
        const cooperate = rng() < rate(p, g, f);
        yield {
          player,
          session,
          game: SCALE_GAMES[g] as string,
          framing: SCALE_FRAMINGS[f] as string,
          action: cooperate ? "cooperate" : "defect",
          firstListed: rng() < 0.5 ? "cooperate" : "defect",
          opponentCooperates: rng() < 0.5,
        };
      }
      left -= length;
    }
  }
}

function sessionLength(kind: PlayerKind, rng: () => number): number {
  if (kind === "solo") return 1;
  if (kind === "cell") return 1 + Math.floor(rng() * 8);
  if (kind === "short-joint") return 2 + Math.floor(rng() * 4);
  return rng() < 0.1 ? 10 + Math.floor(rng() * 51) : 1 + Math.floor(rng() * 3);
}

interface GeneratedDecision {
  player: string;
  session: string;
  game: string;
  framing: string;
  action: "cooperate" | "defect";
  firstListed: "cooperate" | "defect";
  opponentCooperates: boolean;
  at: string;
}

/** One finished one-shot match against the random opponent and its decided round, as play records them. */
function writeDecision(store: Store, d: GeneratedDecision): void {
  const id = randomBytes(16).toString("hex");
  const order = d.firstListed === "cooperate" ? ["cooperate", "defect"] : ["defect", "cooperate"];
  const match: MatchRecord = {
    id,
    study_id: null,
    trial_index: null,
    player: d.player,
    session_id: d.session,
    principal: "local",
    game: d.game,
    variant: "base",
    framing: d.framing,
    style: "zero-shot",
    action_order: order,
    opponent: "random",
    opponent_params: {},
    history_mode: "full",
    reveal_horizon: false,
    rounds: 1,
    partner_match_id: null,
    seed: id.slice(0, 8),
    status: "finished",
    next_round: 2,
    source: null,
    created_at: d.at,
    finished_at: d.at,
  };
  store.insertMatch(match);
  const opponent = d.opponentCooperates ? "cooperate" : "defect";
  store.saveDecision(
    {
      match_id: id,
      round: 1,
      session_id: d.session,
      raw_text: d.action,
      action: d.action,
      rationale: null,
      tokens: 12,
      opponent_action: opponent,
      payoff: d.action === "cooperate" ? (d.opponentCooperates ? 3 : 0) : d.opponentCooperates ? 5 : 1,
      opponent_payoff:
        d.action === "cooperate" ? (d.opponentCooperates ? 3 : 5) : d.opponentCooperates ? 0 : 1,
      invalid_attempts: 0,
      status: "decided",
      decided_at: d.at,
    },
    match,
  );
}
