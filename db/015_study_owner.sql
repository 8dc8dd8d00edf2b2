-- A study belongs to the principal that registered it (a bearer token's SHA-256, or 'local' for the
-- operator: the CLI, stdio, an HTTP server without tokens), so one client's study names and designs never
-- show to another. Studies registered before this column existed are given to the one principal whose
-- trials they hold, when exactly one non-local principal played them; the others stay the operator's.
-- Portable SQL: SQLite and PostgreSQL 15 both accept it.
ALTER TABLE studies ADD COLUMN principal TEXT NOT NULL DEFAULT 'local';

UPDATE studies SET principal = (
  SELECT min(m.principal) FROM matches m WHERE m.study_id = studies.id
)
WHERE (SELECT count(DISTINCT m.principal) FROM matches m WHERE m.study_id = studies.id) = 1
  AND (SELECT min(m.principal) FROM matches m WHERE m.study_id = studies.id) <> 'local';

CREATE INDEX studies_by_principal ON studies (principal, created_at);
