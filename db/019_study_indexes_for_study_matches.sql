-- The study indexes hold study matches only. Every query that reads them names one study
-- (study_id = ?), so an ad-hoc match (study_id NULL, most of live play) never needed an entry: each one it
-- had cost a page written per start_match, and the open-trial index another per finished match.
-- matches_by_study_player (study_id, player) is the first two columns of matches_by_study_trial, which
-- serves every lookup it did.
DROP INDEX matches_by_study_player;
DROP INDEX matches_by_study_trial;
DROP INDEX matches_open_by_study_trial;
CREATE INDEX matches_by_study_trial ON matches(study_id, player, principal, trial_index)
  WHERE study_id IS NOT NULL;
CREATE INDEX matches_open_by_study_trial ON matches(study_id, player, principal, trial_index)
  WHERE status = 'open' AND study_id IS NOT NULL;
