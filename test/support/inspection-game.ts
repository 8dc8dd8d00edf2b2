/** A user's own game for --catalog tests: an inspection game, asymmetric (the column player's payoffs differ). */
export const INSPECTION = {
  id: "inspection",
  title: "Inspection game",
  actions: ["audit", "skip"],
  cooperative_action: null,
  rounds: 1,
  // Row (the agent) is the inspector, column the inspectee choosing audit = comply, skip = cheat.
  payoffs: { audit: { audit: 1, skip: 3 }, skip: { audit: 2, skip: 0 } },
  column_payoffs: { audit: { audit: 2, skip: 2 }, skip: { audit: 0, skip: 4 } },
  variants: { base: { labels: "familiar" } },
};
