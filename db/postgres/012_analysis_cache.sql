-- Port of db/012_analysis_cache.sql (see README.md here): TEXT → TEXT COLLATE "C"; the version and the
-- store time as BIGINT.
CREATE TABLE record_version (
  shard   INTEGER PRIMARY KEY,
  changes BIGINT NOT NULL
);
INSERT INTO record_version (shard, changes)
VALUES (0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (6, 0), (7, 0),
       (8, 0), (9, 0), (10, 0), (11, 0), (12, 0), (13, 0), (14, 0), (15, 0);

CREATE TABLE analysis_cache (
  cache_key      TEXT COLLATE "C" PRIMARY KEY,
  record_version BIGINT NOT NULL,
  result         TEXT COLLATE "C" NOT NULL,
  stored_at      BIGINT NOT NULL
);
CREATE INDEX analysis_cache_age ON analysis_cache (stored_at);
