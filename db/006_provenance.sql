-- Provenance on every decision: the exact prompt the agent answered, which same-game served it
-- and which catalog it was rendered from, so a record can be re-read after the catalog or the code changed.
-- Style and action order are per match (matches.style, matches.action_order) and join onto each decision.

-- Every distinct rendered prompt, stored once; decisions point at it by the SHA-256 of its text.
CREATE TABLE prompts (
  hash TEXT PRIMARY KEY,                   -- SHA-256 hex of the UTF-8 text
  text TEXT NOT NULL
) WITHOUT ROWID;

-- NULL on rows recorded before this migration and on imported rows (their prompts were never seen here).
ALTER TABLE decisions ADD COLUMN prompt_hash TEXT REFERENCES prompts(hash);
ALTER TABLE decisions ADD COLUMN server_version TEXT;
ALTER TABLE decisions ADD COLUMN catalog_fingerprint TEXT;
