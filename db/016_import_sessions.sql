-- Sessions from elsewhere: trial-level data from another harness (a conversation id, an epoch) keeps the
-- session its decisions came from, so the analyses resample whole sessions as they do for live MCP play.
-- A session label is scoped to its import and player: the same label in two games or framings of one
-- player is one session spanning those cells. '' (counts) and NULL (matches) stand for "no session": each
-- decision independent, as before this migration.

-- imported_counts gains `session` in its key (one count per session, cell and action). SQLite cannot
-- change a key in place, so the table is rebuilt; the rows imported before keep session ''.
CREATE TABLE imported_counts_by_session (
  source      TEXT NOT NULL,
  player      TEXT NOT NULL,
  session     TEXT NOT NULL DEFAULT '',
  game        TEXT NOT NULL,
  variant     TEXT NOT NULL DEFAULT 'base',
  framing     TEXT NOT NULL,
  action      TEXT NOT NULL,
  count       INTEGER NOT NULL CHECK (count >= 0),
  imported_at TEXT NOT NULL,
  -- Key order: the analyses read one import's player session by session.
  PRIMARY KEY (source, player, session, game, variant, framing, action)
) WITHOUT ROWID;

INSERT INTO imported_counts_by_session (source, player, session, game, variant, framing, action, count,
  imported_at)
SELECT source, player, '', game, variant, framing, action, count, imported_at FROM imported_counts;

DROP TABLE imported_counts;
ALTER TABLE imported_counts_by_session RENAME TO imported_counts;

-- The session label of an imported match (`import matches`, field `session`); NULL for live play (its
-- MCP session is matches.session_id, a reference to sessions) and for imported matches without one. The
-- tallies of an imported match's decisions carry it as their session_id.
ALTER TABLE matches ADD COLUMN import_session TEXT;
