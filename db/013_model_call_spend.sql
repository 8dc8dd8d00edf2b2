-- What a runner's model call cost and where its reply came from. `cache_key` is the response-cache entry
-- the call was looked up under (`same-game run --cache`), `cached_from` the called_at of the original call
-- whose reply this one reused (NULL: the endpoint answered this call), and `cost_usd` its price under the
-- run's --prices table (NULL without one; 0 for a reply from the cache). Spend per cell is summed from here.
ALTER TABLE model_calls ADD COLUMN cache_key TEXT;
ALTER TABLE model_calls ADD COLUMN cached_from TEXT;
ALTER TABLE model_calls ADD COLUMN cost_usd REAL;
