-- Port of db/015_study_owner.sql (see README.md here): TEXT → TEXT COLLATE "C"; the rest is unchanged.
ALTER TABLE studies ADD COLUMN principal TEXT COLLATE "C" NOT NULL DEFAULT 'local';

UPDATE studies SET principal = (
  SELECT min(m.principal) FROM matches m WHERE m.study_id = studies.id
)
WHERE (SELECT count(DISTINCT m.principal) FROM matches m WHERE m.study_id = studies.id) = 1
  AND (SELECT min(m.principal) FROM matches m WHERE m.study_id = studies.id) <> 'local';

CREATE INDEX studies_by_principal ON studies (principal, created_at);
