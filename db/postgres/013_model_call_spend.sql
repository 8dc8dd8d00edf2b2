-- Port of db/013_model_call_spend.sql (a call's cache origin and price); see README.md.
ALTER TABLE model_calls ADD COLUMN cache_key TEXT COLLATE "C";
ALTER TABLE model_calls ADD COLUMN cached_from TEXT COLLATE "C";
ALTER TABLE model_calls ADD COLUMN cost_usd DOUBLE PRECISION;
