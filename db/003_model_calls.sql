-- Every call a runner (`same-game run`) made to a model endpoint for one submitted reply: the provider,
-- the model id the endpoint reported, the decoding settings, the endpoint's usage, latency, finish reason
-- and the raw reply, linked to the attempt it produced. Sent by the runner in the request `_meta` of
-- submit_move ("same-game/model-calls"), so a remote runner records them too. Never holds an API key.
CREATE TABLE model_calls (
  id                INTEGER PRIMARY KEY,
  attempt_id        INTEGER NOT NULL REFERENCES attempts(id),
  match_id          TEXT NOT NULL REFERENCES matches(id),
  round             INTEGER NOT NULL,
  seq               INTEGER NOT NULL,       -- order of the call among those behind this attempt
  provider          TEXT NOT NULL,          -- openai | anthropic (the API family spoken)
  requested_model   TEXT NOT NULL,          -- --model as given
  reported_model    TEXT,                   -- the model id in the endpoint's reply
  mode              TEXT NOT NULL,          -- tools | text
  style             TEXT NOT NULL,          -- the runner's preamble style (styles/*.json)
  sample_index      INTEGER NOT NULL DEFAULT 0, -- 0..K-1 under --samples K
  decoding_json     TEXT NOT NULL,          -- temperature, max_tokens and other decoding settings sent
  prompt_tokens     INTEGER,
  completion_tokens INTEGER,
  latency_ms        REAL NOT NULL,          -- the successful request, retries excluded
  retries           INTEGER NOT NULL DEFAULT 0,
  finish_reason     TEXT,
  raw_reply         TEXT NOT NULL,          -- the reply's text and tool calls, as JSON
  called_at         TEXT NOT NULL
);
CREATE INDEX model_calls_by_round ON model_calls(match_id, round);
