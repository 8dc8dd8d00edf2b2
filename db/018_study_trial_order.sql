-- A study's trials of one player in schedule order, and its open ones apart: next_trial under adaptive
-- stopping reads only the trials from the last one it had not yet seen finished, and looks for the
-- player's open trial, on every assignment. With only (study_id, player) both reads walked every trial
-- the player had, so an assignment cost more the longer the study ran; these make both a range read.
CREATE INDEX matches_by_study_trial ON matches(study_id, player, principal, trial_index);
CREATE INDEX matches_open_by_study_trial ON matches(study_id, player, principal, trial_index)
  WHERE status = 'open';
