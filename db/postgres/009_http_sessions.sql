-- Port of db/009_http_sessions.sql (see README.md here): TEXT → TEXT COLLATE "C"; the rest is unchanged.
CREATE TABLE http_sessions (
  id TEXT COLLATE "C" PRIMARY KEY,
  principal TEXT COLLATE "C" NOT NULL,
  protocol_version TEXT COLLATE "C" NOT NULL,
  initialize_params TEXT COLLATE "C" NOT NULL,
  client_name TEXT COLLATE "C",
  client_version TEXT COLLATE "C",
  created_at BIGINT NOT NULL,
  last_seen_at BIGINT NOT NULL,
  closed_at BIGINT,
  rate_tokens DOUBLE PRECISION NOT NULL,
  rate_updated_at BIGINT NOT NULL,
  rate_taken INTEGER NOT NULL DEFAULT 1
);

CREATE INDEX http_sessions_live ON http_sessions (principal, closed_at, last_seen_at);
