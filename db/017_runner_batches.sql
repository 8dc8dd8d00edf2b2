-- The provider batches of `same-game run --batch`, kept in the record so a run that is killed while a batch
-- is in flight picks it up by id when started again, instead of submitting (and paying for) it twice.
-- A batch belongs to one study, player and endpoint (provider, base URL, model); `ended_at` is set once
-- every result of it has been mapped back to its trial (NULL: in flight, or its results not yet read).
CREATE TABLE runner_batches (
  batch_id     TEXT PRIMARY KEY,
  provider     TEXT NOT NULL,
  url          TEXT NOT NULL,
  model        TEXT NOT NULL,
  study_id     TEXT NOT NULL,
  player       TEXT NOT NULL,
  requests     INTEGER NOT NULL,
  submitted_at TEXT NOT NULL,
  ended_at     TEXT
);
CREATE INDEX runner_batches_open ON runner_batches (study_id, player, ended_at);

-- Which trial each request of a batch is for: the custom_id its result comes back under, the match, the
-- player's trial index and the sample, the request itself (so a request that failed or expired in the
-- batch can be made again directly) and the round as next_trial showed it (so the reply can be submitted). `recorded_at` is set when its reply has been submitted to the match:
-- a result is mapped back to its trial exactly once.
CREATE TABLE runner_batch_requests (
  batch_id     TEXT NOT NULL REFERENCES runner_batches (batch_id),
  custom_id    TEXT NOT NULL,
  match_id     TEXT NOT NULL,
  trial_index  INTEGER NOT NULL,
  sample_index INTEGER NOT NULL,
  request_json TEXT NOT NULL,
  view_json    TEXT NOT NULL,
  recorded_at  TEXT,
  PRIMARY KEY (batch_id, custom_id)
);
CREATE INDEX runner_batch_requests_match ON runner_batch_requests (match_id);

-- The batch a model call's reply came from (NULL: a direct call, or a reply from the cache).
ALTER TABLE model_calls ADD COLUMN batch_id TEXT;
