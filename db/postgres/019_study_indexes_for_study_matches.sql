-- The same as db/019_study_indexes_for_study_matches.sql (comments there).
DROP INDEX matches_by_study_player;
DROP INDEX matches_by_study_trial;
DROP INDEX matches_open_by_study_trial;
CREATE INDEX matches_by_study_trial ON matches(study_id, player, principal, trial_index)
  WHERE study_id IS NOT NULL;
CREATE INDEX matches_open_by_study_trial ON matches(study_id, player, principal, trial_index)
  WHERE status = 'open' AND study_id IS NOT NULL;
