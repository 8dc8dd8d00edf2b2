import { fixed, interval, table } from "../queries/format.js";
import { type ReportData, reportChecks, reportNotes } from "../report/report-data.js";

// The demo's printed tables: the same numbers the HTML report charts, for a reader at the terminal.

export function robustnessTable(report: ReportData): string {
  const result = report.robustness;
  if (!result) return "Robustness: not computed (no framing pair with decisions in both framings).";
  const [baseline, comparison] = result.framings;
  const rows = [
    ...result.games.map((g) => [g.player, g.game, g.R, g.shift] as const),
    ...result.players.map((p) => [p.player, "all games", p.R, p.shift] as const),
  ].map(([player, game, R, shift]) => [
    player,
    game,
    fixed(R.estimate),
    interval(R.ci),
    fixed(shift?.estimate),
    interval(shift?.ci),
  ]);
  return [
    `Robustness R (1 = the story changes nothing) and cooperation shift ${baseline} → ${comparison}, 95% CIs (${result.bootstrap} bootstrap replicates by ${result.unit}):`,
    table(["player", "game", "R", "R 95% CI", "shift", "shift 95% CI"], rows),
  ].join("\n");
}

export function sensitivityTable(report: ReportData): string {
  const pooled = report.sensitivity?.pooled ?? [];
  if (pooled.length === 0) return "Payoff sensitivity λ: not computed.";
  return [
    "Payoff sensitivity λ (0 = payoff-blind, 20 = the cap), fitted across games per framing, 95% CIs:",
    table(
      ["player", "framing", "λ", "λ 95% CI"],
      pooled.map((p) => [p.player, p.framing, fixed(p.lambda.estimate, 2), interval(p.lambda.ci, 2)]),
    ),
  ].join("\n");
}

export function repeatedTable(report: ReportData): string {
  const cells = report.repeated ?? [];
  if (cells.length === 0) return "Repeated play: no finished repeated matches.";
  const rounds = (cells[0]?.curve.length ?? 0) + 1;
  return [
    `Repeated play (means over matches; comprehension round m, ${rounds} = never):`,
    table(
      ["player", "game", "opponent", "matches", "points", "cooperation", "m"],
      cells.map((c) => [
        c.player,
        c.game,
        c.opponent,
        String(c.matches),
        fixed(c.mean_total_points, 1),
        fixed(c.mean_cooperation_rate, 2),
        fixed(c.mean_comprehension_round, 1),
      ]),
    ),
  ].join("\n");
}

/** The checks' verdict (invariants), then the notes' names (information; the report holds their detail). */
export function failedChecks(report: ReportData): string {
  const checks = reportChecks(report);
  const failed = checks.filter((c) => !c.ok);
  const verdict =
    failed.length === 0
      ? `Verification: all ${checks.length} checks passed.`
      : [
          `Verification: ${failed.length} of ${checks.length} checks failed:`,
          ...failed.map((c) => `  ${c.name}: ${c.detail}`),
        ].join("\n");
  const notes = reportNotes(report);
  return notes.length === 0
    ? verdict
    : `${verdict}\nNotes (information, not failures; detail in the report): ${notes.map((n) => n.name).join(", ")}.`;
}
