CREATE INDEX matches_by_study_trial ON matches(study_id, player, principal, trial_index);
CREATE INDEX matches_open_by_study_trial ON matches(study_id, player, principal, trial_index)
  WHERE status = 'open';
