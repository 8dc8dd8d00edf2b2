-- The record of every choice. Read SPEC.md §1 for the objects; every row keeps its provenance.

-- One row per MCP connection (stdio process, HTTP session, in-memory test client).
CREATE TABLE sessions (
  id             TEXT PRIMARY KEY,
  player         TEXT NOT NULL,            -- label from --player, the `player` argument or the client name
  client_name    TEXT,                     -- what the MCP client reported about itself
  client_version TEXT,
  transport      TEXT NOT NULL,            -- stdio | http | memory
  principal      TEXT NOT NULL DEFAULT 'local', -- access-control owner (a token's hash, or 'local')
  started_at     TEXT NOT NULL
);

-- A pre-registered design, frozen once stored: design_hash is the SHA-256 of design_json.
CREATE TABLE studies (
  id          TEXT PRIMARY KEY,
  name        TEXT NOT NULL,
  design_json TEXT NOT NULL,
  design_hash TEXT NOT NULL,
  seed        TEXT NOT NULL,
  created_at  TEXT NOT NULL
);

-- One match: a one-shot trial (rounds = 1) or a repeated game. Live matches have source NULL;
-- imported transcripts carry their source label and free-text framing/opponent provenance.
CREATE TABLE matches (
  id               TEXT PRIMARY KEY,       -- unguessable (random 128 bits)
  study_id         TEXT REFERENCES studies(id),
  trial_index      INTEGER,                -- position in the study's schedule for this player
  player           TEXT NOT NULL,
  session_id       TEXT REFERENCES sessions(id),
  principal        TEXT NOT NULL DEFAULT 'local',
  game             TEXT NOT NULL,
  variant          TEXT NOT NULL,
  framing          TEXT NOT NULL,
  style            TEXT NOT NULL,
  action_order     TEXT NOT NULL,          -- JSON array of canonical ids, as shown to the agent
  opponent         TEXT NOT NULL,
  opponent_params  TEXT NOT NULL DEFAULT '{}',
  history_mode     TEXT NOT NULL DEFAULT 'full',
  reveal_horizon   INTEGER NOT NULL DEFAULT 0,
  rounds           INTEGER NOT NULL,
  partner_match_id TEXT REFERENCES matches(id), -- the other seat of an agent-vs-agent match
  seed             TEXT NOT NULL,
  status           TEXT NOT NULL CHECK (status IN ('open', 'finished')),
  next_round       INTEGER NOT NULL DEFAULT 1,
  source           TEXT,
  created_at       TEXT NOT NULL,
  finished_at      TEXT
);
CREATE INDEX matches_by_study_player ON matches(study_id, player);
CREATE INDEX matches_by_cell ON matches(player, game, variant, framing);

-- The decided outcome of one round of one match: exactly one row per (match, round).
-- action NULL = the round is void (no valid move); payoffs are then 0 for both sides (SPEC §6).
CREATE TABLE decisions (
  match_id        TEXT NOT NULL REFERENCES matches(id),
  round           INTEGER NOT NULL,
  session_id      TEXT REFERENCES sessions(id),
  raw_text        TEXT,
  action          TEXT,
  rationale       TEXT,
  tokens          INTEGER,                 -- every token spent on the round, all attempts, if known
  opponent_action TEXT,
  payoff          REAL,
  opponent_payoff REAL,
  invalid_attempts INTEGER NOT NULL DEFAULT 0,
  status          TEXT NOT NULL CHECK (status IN ('pending', 'decided', 'void', 'forfeit')),
  decided_at      TEXT NOT NULL,
  PRIMARY KEY (match_id, round)
) WITHOUT ROWID;

-- Every reply an agent submitted, valid or not, verbatim (SPEC §3: each attempt is recorded).
CREATE TABLE attempts (
  id             INTEGER PRIMARY KEY,
  match_id       TEXT NOT NULL REFERENCES matches(id),
  round          INTEGER NOT NULL,
  session_id     TEXT REFERENCES sessions(id),
  raw_text       TEXT NOT NULL,
  action         TEXT,
  invalid_reason TEXT,
  tokens         INTEGER,
  created_at     TEXT NOT NULL
);
CREATE INDEX attempts_by_round ON attempts(match_id, round);

-- Published aggregate counts (e.g. the Lorè & Heydari reference data), kept beside live play.
CREATE TABLE imported_counts (
  source      TEXT NOT NULL,
  player      TEXT NOT NULL,
  game        TEXT NOT NULL,
  variant     TEXT NOT NULL DEFAULT 'base',
  framing     TEXT NOT NULL,
  action      TEXT NOT NULL,
  count       INTEGER NOT NULL CHECK (count >= 0),
  imported_at TEXT NOT NULL,
  PRIMARY KEY (source, player, game, variant, framing, action)
) WITHOUT ROWID;
