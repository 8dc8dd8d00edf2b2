// Row shapes of the record, as the rest of the code sees them (JSON columns already parsed).

export interface SessionRecord {
  id: string;
  player: string;
  client_name: string | null;
  client_version: string | null;
  transport: string;
  principal: string;
  started_at: string;
}

export interface StudyRecord {
  id: string;
  name: string;
  design_json: string;
  design_hash: string;
  seed: string;
  created_at: string;
  /** Who registered it: a bearer token's principal, or 'local' (the operator, stdio, no tokens). */
  principal: string;
}

export type MatchStatus = "open" | "finished";

export interface MatchRecord {
  id: string;
  study_id: string | null;
  trial_index: number | null;
  player: string;
  session_id: string | null;
  principal: string;
  game: string;
  variant: string;
  framing: string;
  style: string;
  action_order: string[];
  opponent: string;
  opponent_params: Record<string, unknown>;
  history_mode: string;
  reveal_horizon: boolean;
  rounds: number;
  partner_match_id: string | null;
  seed: string;
  status: MatchStatus;
  next_round: number;
  source: string | null;
  /**
   * The session label an imported match came with (`import matches`, field `session`), scoped to its
   * source and player; absent for live play (its session is session_id) and for imports without one.
   */
  import_session?: string | null;
  created_at: string;
  finished_at: string | null;
}

export type DecisionStatus = "pending" | "decided" | "void" | "forfeit";

export interface DecisionRecord {
  match_id: string;
  round: number;
  session_id: string | null;
  raw_text: string | null;
  action: string | null;
  rationale: string | null;
  tokens: number | null;
  opponent_action: string | null;
  payoff: number | null;
  opponent_payoff: number | null;
  invalid_attempts: number;
  status: DecisionStatus;
  decided_at: string;
  /** SHA-256 of the prompt the agent answered (text in the prompts table); null when imported. */
  prompt_hash?: string | null;
  /** The same-game version that served the round; null when imported or recorded before versions were kept. */
  server_version?: string | null;
  /** Catalog.fingerprint of the catalog the prompt was rendered from. */
  catalog_fingerprint?: string | null;
}

export interface AttemptRecord {
  match_id: string;
  round: number;
  session_id: string | null;
  raw_text: string;
  action: string | null;
  invalid_reason: string | null;
  tokens: number | null;
  created_at: string;
}

/** One aggregated row of one-shot play: how often `action` was chosen in a cell, per session. */
export interface CellCountRow {
  player: string;
  game: string;
  variant: string;
  framing: string;
  action: string;
  /**
   * The session the decisions came from: the MCP session of live play; for imported records the import's
   * session label, made unique across imports (see importedSessionId); null for imported decisions
   * without a session (each decision independent).
   */
  session_id: string | null;
  count: number;
  source: string | null;
}

export interface ImportedCountRow {
  player: string;
  game: string;
  variant: string;
  framing: string;
  /** The session label of the counts (scoped to the import and player); absent: decisions without one. */
  session?: string;
  action: string;
  count: number;
}

/** Filters shared by the analysis queries; an absent or empty filter matches everything. */
export interface RecordFilter {
  players?: string[];
  games?: string[];
  variants?: string[];
  framings?: string[];
  study_id?: string;
}

/** One MCP session of the HTTP server (migration 009): what any replica needs to serve its next request. */
export interface HttpSessionRecord {
  id: string;
  principal: string;
  protocol_version: string;
  /** The params of the client's initialize request, as JSON. */
  initialize_params: string;
  client_name: string | null;
  client_version: string | null;
  /** Milliseconds since the epoch. */
  created_at: number;
}

/** The caps an initialize must fit under, counted over the live sessions of every replica. */
export interface HttpSessionCaps {
  maxSessions: number;
  maxSessionsPerPrincipal: number;
  /** Sessions last seen before this instant (ms) have expired and count for nothing. */
  liveSince: number;
  /** The token bucket a new session starts with: one second's worth (--rate-limit). */
  ratePerSecond: number;
}

/** What one request found in its session's row, after taking its messages from the shared bucket. */
export interface HttpSessionTouch {
  initialize_params: string;
  /** False: the bucket held fewer than the request's messages, and none were taken. */
  taken: boolean;
  /** Tokens taken beyond the request's own, for the replica to spend on the session's next requests. */
  leased: number;
  /** Tokens left in the bucket after the request (for Retry-After when refused). */
  tokens: number;
}
