-- Port of db/016_import_sessions.sql (comments there). The table is rebuilt here too, so its columns
-- keep the same order on both engines.
CREATE TABLE imported_counts_by_session (
  source      TEXT COLLATE "C" NOT NULL,
  player      TEXT COLLATE "C" NOT NULL,
  session     TEXT COLLATE "C" NOT NULL DEFAULT '',
  game        TEXT COLLATE "C" NOT NULL,
  variant     TEXT COLLATE "C" NOT NULL DEFAULT 'base',
  framing     TEXT COLLATE "C" NOT NULL,
  action      TEXT COLLATE "C" NOT NULL,
  count       BIGINT NOT NULL CHECK (count >= 0),
  imported_at TEXT COLLATE "C" NOT NULL,
  PRIMARY KEY (source, player, session, game, variant, framing, action)
);

INSERT INTO imported_counts_by_session (source, player, session, game, variant, framing, action, count,
  imported_at)
SELECT source, player, '', game, variant, framing, action, count, imported_at FROM imported_counts;

DROP TABLE imported_counts;
ALTER TABLE imported_counts_by_session RENAME TO imported_counts;

ALTER TABLE matches ADD COLUMN import_session TEXT COLLATE "C";
