-- Port of db/017_runner_batches.sql (run --batch's batches and their requests); see README.md.
CREATE TABLE runner_batches (
  batch_id     TEXT COLLATE "C" PRIMARY KEY,
  provider     TEXT COLLATE "C" NOT NULL,
  url          TEXT COLLATE "C" NOT NULL,
  model        TEXT COLLATE "C" NOT NULL,
  study_id     TEXT COLLATE "C" NOT NULL,
  player       TEXT COLLATE "C" NOT NULL,
  requests     INTEGER NOT NULL,
  submitted_at TEXT COLLATE "C" NOT NULL,
  ended_at     TEXT COLLATE "C"
);
CREATE INDEX runner_batches_open ON runner_batches (study_id, player, ended_at);

CREATE TABLE runner_batch_requests (
  batch_id     TEXT COLLATE "C" NOT NULL REFERENCES runner_batches (batch_id),
  custom_id    TEXT COLLATE "C" NOT NULL,
  match_id     TEXT COLLATE "C" NOT NULL,
  trial_index  INTEGER NOT NULL,
  sample_index INTEGER NOT NULL,
  request_json TEXT COLLATE "C" NOT NULL,
  view_json    TEXT COLLATE "C" NOT NULL,
  recorded_at  TEXT COLLATE "C",
  PRIMARY KEY (batch_id, custom_id)
);
CREATE INDEX runner_batch_requests_match ON runner_batch_requests (match_id);

ALTER TABLE model_calls ADD COLUMN batch_id TEXT COLLATE "C";
