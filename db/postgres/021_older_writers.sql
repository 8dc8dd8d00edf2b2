-- Port of db/021_older_writers.sql; see README.md. Only the column: the older same-game that writes into a
-- newer record without knowing it ran on SQLite alone (every same-game that reads PostgreSQL refuses a
-- record of a newer schema), so a PostgreSQL record needs neither the triggers nor the recount.
ALTER TABLE decisions ADD COLUMN tallied INTEGER;
