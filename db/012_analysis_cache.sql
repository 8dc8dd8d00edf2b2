-- The record's version and the analysis result cache.
--
-- record_version counts the committed writing transactions (Store.transaction bumps it once per outermost
-- transaction, in that transaction): the version is the sum of its rows, so it changes with every
-- recorded decision, import or study, and a reader sees it change exactly when the write becomes visible.
-- It is spread over 16 rows (a writer bumps one at random) so that concurrent PostgreSQL transactions of
-- several replicas seldom update the same row, which SERIALIZABLE would make one of them retry.
CREATE TABLE record_version (
  shard   INTEGER PRIMARY KEY,
  changes INTEGER NOT NULL
);
INSERT INTO record_version (shard, changes)
VALUES (0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (6, 0), (7, 0),
       (8, 0), (9, 0), (10, 0), (11, 0), (12, 0), (13, 0), (14, 0), (15, 0);

-- Analysis results by (tool, normalized arguments, principal) for one record version: every replica on
-- this record reads and writes the same rows. Entries of another version can never answer again and are
-- deleted when a new one is stored; the number of entries is bounded by the server.
CREATE TABLE analysis_cache (
  cache_key      TEXT PRIMARY KEY,
  record_version INTEGER NOT NULL,
  result         TEXT NOT NULL,
  stored_at      INTEGER NOT NULL
);
CREATE INDEX analysis_cache_age ON analysis_cache (stored_at);
