-- Decision tallies: how many valid decisions each (player, MCP session, cell) made of each
-- action, kept in the transaction that records the decision, so the analyses read a few thousand
-- aggregate rows instead of joining every decision to its match. A row is the count of decided rounds
-- with an action, grouped by everything the analysis filters on. '' stands for "none" in session_id,
-- study_id and source (so the key has no NULLs). order_position: 0 or 1 when the match listed exactly two
-- actions and this one first or second, −1 otherwise (the order-effect counts). Rows whose count fell to 0
-- (a decision replaced) are kept and skipped by the readers.
CREATE TABLE decision_tallies (
  player         TEXT NOT NULL,
  session_id     TEXT NOT NULL,
  game           TEXT NOT NULL,
  variant        TEXT NOT NULL,
  framing        TEXT NOT NULL,
  study_id       TEXT NOT NULL,
  principal      TEXT NOT NULL,
  source         TEXT NOT NULL,
  one_shot       INTEGER NOT NULL,
  order_position INTEGER NOT NULL,
  action         TEXT NOT NULL,
  count          INTEGER NOT NULL,
  -- Key order: the analyses read one player's sessions cell by cell and action by action, in key order.
  PRIMARY KEY (player, session_id, game, variant, framing, action, study_id, principal, source, one_shot,
    order_position)
);

-- The decisions recorded before this migration. Action ids are catalog ids (no quotes or commas), so
-- the JSON array of the listed order can be read with plain string functions.
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
