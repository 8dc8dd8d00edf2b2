-- Port of db/020_run_leases.sql (the lease of the run playing a study for a player); see README.md.
CREATE TABLE run_leases (
  study_id   TEXT COLLATE "C" NOT NULL,
  player     TEXT COLLATE "C" NOT NULL,
  holder     TEXT COLLATE "C" NOT NULL,
  pid        INTEGER NOT NULL,
  host       TEXT COLLATE "C" NOT NULL,
  pid_scope  TEXT COLLATE "C" NOT NULL,
  since      TEXT COLLATE "C" NOT NULL,
  renewed_at TEXT COLLATE "C" NOT NULL,
  expires_at TEXT COLLATE "C" NOT NULL,
  PRIMARY KEY (study_id, player)
);
