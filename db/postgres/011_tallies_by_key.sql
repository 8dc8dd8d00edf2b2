-- Port of db/011_tallies_by_key.sql. There the SQLite table is rebuilt WITHOUT ROWID (its rows stored in
-- the key's b-tree); PostgreSQL tables have no rowid and this one already has its key as its only
-- index, so the port changes nothing (the number is kept: a record has the same version on both engines).
SELECT 1;
