-- Port of db/007_decision_tallies.sql (see README.md here); the statements are the same.
CREATE TABLE decision_tallies (
  player         TEXT COLLATE "C" NOT NULL,
  session_id     TEXT COLLATE "C" NOT NULL,
  game           TEXT COLLATE "C" NOT NULL,
  variant        TEXT COLLATE "C" NOT NULL,
  framing        TEXT COLLATE "C" NOT NULL,
  study_id       TEXT COLLATE "C" NOT NULL,
  principal      TEXT COLLATE "C" NOT NULL,
  source         TEXT COLLATE "C" NOT NULL,
  one_shot       INTEGER NOT NULL,
  order_position INTEGER NOT NULL,
  action         TEXT COLLATE "C" NOT NULL,
  count          INTEGER NOT NULL,
  -- Key order: the analyses read one player's sessions cell by cell and action by action, in key order.
  PRIMARY KEY (player, session_id, game, variant, framing, action, study_id, principal, source, one_shot,
    order_position)
);

INSERT INTO decision_tallies (player, session_id, game, variant, framing, action, study_id, principal,
  source, one_shot, order_position, count)
SELECT m.player, coalesce(d.session_id, ''), m.game, m.variant, m.framing, d.action, coalesce(m.study_id, ''),
  m.principal, coalesce(m.source, ''), CASE WHEN m.rounds = 1 THEN 1 ELSE 0 END,
  CASE
    WHEN length(m.action_order) - length(replace(m.action_order, ',', '')) <> 1 THEN -1
    WHEN substr(m.action_order, 1, length(d.action) + 3) = '["' || d.action || '"' THEN 0
    ELSE 1
  END,
  count(*)
FROM decisions d JOIN matches m ON m.id = d.match_id
WHERE d.status = 'decided' AND d.action IS NOT NULL
GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11;
