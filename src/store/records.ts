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
  /** The same-game version that served the round; null when imported or recorded before issue 14. */
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
  /** The MCP session the decisions came from; null for imported aggregate counts. */
  session_id: string | null;
  count: number;
  source: string | null;
}

export interface ImportedCountRow {
  player: string;
  game: string;
  variant: string;
  framing: string;
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
