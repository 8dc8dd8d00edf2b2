-- Which `same-game run` plays a study for a player now: one row per (study, player) while a run lives,
-- written by the runner before its first trial, renewed by its heartbeat and deleted when it ends. A second
-- run of the same study and player is refused while the row is live, instead of both being handed each
-- other's open trials and paying for replies only one of them can record. A run that died without ending
-- leaves its row behind: it is taken over once `expires_at` has passed, or at once when process `pid` is
-- gone and the run taking over can tell: it runs where that pid would be seen (`pid_scope`: the host name
-- and the PID namespace, since containers sharing a host name do not see each other's processes). `holder` is a token drawn by each run, so only the run that wrote a row renews or
-- deletes it.
CREATE TABLE run_leases (
  study_id   TEXT NOT NULL,
  player     TEXT NOT NULL,
  holder     TEXT NOT NULL,
  pid        INTEGER NOT NULL,
  host       TEXT NOT NULL,
  pid_scope  TEXT NOT NULL,
  since      TEXT NOT NULL,
  renewed_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  PRIMARY KEY (study_id, player)
);
