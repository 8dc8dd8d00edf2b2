import { opponentLabel } from "../domain/opponent-label.js";
import { labelList } from "../report/label-list.js";
import type { CompareReport } from "./compare-query.js";
import { confidenceLevel, fixed, interval, printable, pValue, table } from "./format.js";

/** The readable twin of a comparison: the ranks (a leaderboard), then every pair, then what was left out. */
export function compareText(report: CompareReport): string {
  const level = confidenceLevel(report.confidence);
  const lines = [
    printable(
      `Comparison by ${report.by} of ${report.groups.length} groups over framings ${labelList(report.framings)} (variant ${report.variant})${report.group_details.length > 0 ? `; shift = ${labelList(report.framings.slice(1, 2))} minus ${labelList(report.framings.slice(0, 1))}` : ""}.`,
    ),
    `Bootstrap B = ${report.bootstrap}, seed ${report.seed}; units: ${[
      ...report.group_details.map((g) => `${printable(g.group)} ${g.unit}`),
      ...(report.repeated_units ?? []).map((g) => `${printable(g.group)} ${g.unit} (repeated play)`),
    ].join(", ")}.`,
    "",
  ];
  for (const measure of [...new Set(report.ranks.map((r) => r.measure))]) {
    const name = measure === "lambda" ? "λ" : measure;
    const conditions = report.ranked_conditions?.[measure as keyof typeof report.ranked_conditions];
    const on = conditions
      ? conditions
          .map(
            (c) =>
              `${c.game}/${printable(c.framing)} vs ${printable(opponentLabel(c.opponent ?? "", c.opponent_params))}`,
          )
          .join(", ")
      : report.ranked_games.join(", ");
    const best = measure === "comprehension_m" || measure === "exploitability" ? "lowest" : "highest";
    lines.push(
      `Ranks of ${name} on ${on} (rank 1 = ${best}; simultaneous ${level} rank intervals; a tier holds the groups not surely below its best):`,
      table(
        ["rank", "group", name, `${name} ${level} CI`, "rank interval", "tier"],
        report.ranks
          .filter((r) => r.measure === measure)
          .map((r) => [
            String(r.rank.estimate),
            r.group,
            fixed(r.estimate),
            interval(r.ci),
            `[${r.rank.ci[0]}, ${r.rank.ci[1]}]`,
            String(r.tied_group),
          ]),
      ),
      "",
    );
  }
  lines.push(
    `Pairs (difference = a − b on the cells both played; p adjusted by Holm within each measure):`,
    table(
      ["measure", "a", "b", "difference", `${level} CI`, "p", "p (Holm)", "paired", "games used"],
      report.pairs.map((p) => [
        p.measure,
        p.a,
        p.b,
        fixed(p.difference.estimate),
        interval(p.difference.ci),
        pValue(p.p_value),
        pValue(p.p_adjusted),
        p.paired ? "yes" : "no",
        [...new Set(p.cells_used.map((c) => c.game))].join(", "),
      ]),
    ),
  );
  // One line per pair for one-shot play (R) and one for repeated play (points, with the opponent).
  const leftOut = report.pairs.filter(
    (p) => (p.measure === "R" || p.measure === "points") && p.cells_left_out.length > 0,
  );
  for (const p of leftOut) {
    const cells = p.cells_left_out.map(
      (c) =>
        `${c.game}/${printable(c.framing)}${c.opponent ? ` vs ${printable(opponentLabel(c.opponent, c.opponent_params))}` : ""}`,
    );
    lines.push(
      `Left out of ${printable(p.a)} vs ${printable(p.b)}${p.measure === "points" ? " (repeated play)" : ""}: ${cells.join(", ")}.`,
    );
  }
  for (const note of report.notes) lines.push(note);
  if (report.skipped.length > 0)
    lines.push(`Not compared: ${report.skipped.map((s) => s.measure).join(", ")}.`);
  return lines.join("\n");
}
