-- MCP sessions of the HTTP server, in the record so any replica can serve any request: a
-- replica that has never seen a session id rebuilds the session from its row by replaying the client's
-- initialize, and the caps and the request rate hold across replicas because they are counted here.
-- Times are milliseconds since the epoch. Portable SQL: SQLite and PostgreSQL 15 both accept it.
CREATE TABLE http_sessions (
  id TEXT PRIMARY KEY,                     -- the Mcp-Session-Id (a UUID)
  principal TEXT NOT NULL,                 -- SHA-256 of the bearer token, or 'local'; only it may use the id
  protocol_version TEXT NOT NULL,          -- the version the client asked for in initialize
  initialize_params TEXT NOT NULL,         -- the initialize request's params (JSON), replayed on a rebuild
  client_name TEXT,
  client_version TEXT,
  created_at BIGINT NOT NULL,
  last_seen_at BIGINT NOT NULL,            -- idle expiry counts from here
  closed_at BIGINT,                        -- set by DELETE; a closed id answers 404 on every replica
  rate_tokens DOUBLE PRECISION NOT NULL,   -- the session's token bucket (--rate-limit), shared by replicas
  rate_updated_at BIGINT NOT NULL,
  rate_taken INTEGER NOT NULL DEFAULT 1    -- whether the last request found its tokens (read back at once)
);

-- The session caps count a principal's live sessions (and all live sessions) on every initialize.
CREATE INDEX http_sessions_live ON http_sessions (principal, closed_at, last_seen_at);
