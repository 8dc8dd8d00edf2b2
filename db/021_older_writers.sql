-- Decisions written by an older same-game. The same-game of schema versions 3 to 5 did not yet refuse a
-- record of a newer schema: a host still launching such an install opens a record this same-game has
-- migrated and writes its decisions with `INSERT OR REPLACE`, knowing nothing of decision_tallies (007) or
-- record_version (012). Its decisions were then missing from every analysis (which reads the tallies), and
-- an analysis cached before them answered again (the version had not moved).
--
-- Every decision this same-game writes sets `tallied` (DecisionStore.saveDecision keeps the tallies itself);
-- a row written without it comes from an older writer, and the triggers below do for it what
-- saveDecision does: take out the decided round it replaces, count the new one if decided, and move the
-- record's version. The older writer issues no UPDATE or DELETE of decisions, so INSERT is all they watch.
ALTER TABLE decisions ADD COLUMN tallied INTEGER;

-- The tally key of every decided round, as saveDecision computes it (the match's session label for an
-- imported match; the position of the action when the match listed exactly two; action ids are catalog
-- ids, without quotes or commas, so the JSON array can be read with string functions).
CREATE VIEW decided_round_tally_keys AS
SELECT d.match_id, d.round, m.player, coalesce(d.session_id, m.import_session, '') AS session_id, m.game,
  m.variant, m.framing, d.action, coalesce(m.study_id, '') AS study_id, m.principal,
  coalesce(m.source, '') AS source, CASE WHEN m.rounds = 1 THEN 1 ELSE 0 END AS one_shot,
  CASE
    WHEN length(m.action_order) - length(replace(m.action_order, ',', '')) <> 1 THEN -1
    WHEN substr(m.action_order, 1, length(d.action) + 3) = '["' || d.action || '"' THEN 0
    ELSE 1
  END AS order_position
FROM decisions d JOIN matches m ON m.id = d.match_id
WHERE d.status = 'decided' AND d.action IS NOT NULL;

-- BEFORE: the row an INSERT OR REPLACE is about to remove is still there to be read (REPLACE removes it
-- without firing delete triggers).
CREATE TRIGGER decisions_by_older_writer_replace BEFORE INSERT ON decisions WHEN NEW.tallied IS NULL
BEGIN
  UPDATE decision_tallies SET count = count - 1
  WHERE (player, session_id, game, variant, framing, action, study_id, principal, source, one_shot,
    order_position) IN (
    SELECT player, session_id, game, variant, framing, action, study_id, principal, source, one_shot,
      order_position
    FROM decided_round_tally_keys WHERE match_id = NEW.match_id AND round = NEW.round);
END;

CREATE TRIGGER decisions_by_older_writer_count AFTER INSERT ON decisions WHEN NEW.tallied IS NULL
BEGIN
  INSERT INTO decision_tallies (player, session_id, game, variant, framing, action, study_id, principal,
    source, one_shot, order_position, count)
  SELECT player, session_id, game, variant, framing, action, study_id, principal, source, one_shot,
    order_position, 1
  FROM decided_round_tally_keys WHERE match_id = NEW.match_id AND round = NEW.round
  ON CONFLICT (player, session_id, game, variant, framing, action, study_id, principal, source, one_shot,
    order_position) DO UPDATE SET count = count + 1;
  UPDATE record_version SET changes = changes + 1 WHERE shard = 0;
END;

-- Decisions an older writer recorded before this migration are in no tally: the tallies are counted again
-- from the decisions (a record this same-game alone wrote gets the same rows, less those a replaced
-- decision had left at 0, which the readers skip).
DELETE FROM decision_tallies;
INSERT INTO decision_tallies (player, session_id, game, variant, framing, action, study_id, principal,
  source, one_shot, order_position, count)
SELECT player, session_id, game, variant, framing, action, study_id, principal, source, one_shot,
  order_position, count(*)
FROM decided_round_tally_keys
GROUP BY player, session_id, game, variant, framing, action, study_id, principal, source, one_shot,
  order_position;
UPDATE record_version SET changes = changes + 1 WHERE shard = 0;
