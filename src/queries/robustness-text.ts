import { labelList } from "../report/label-list.js";
import { resamplingUnits } from "../report/resampling-units.js";
import { confidenceLevel, fixed, interval, printable, pValue, table } from "./format.js";
import type { RobustnessReport } from "./robustness-query.js";
import { verificationText } from "./verification-text.js";

/** The readable twin of a robustness report: one table of games, players and the pool, then the checks and notes. */
export function robustnessText(report: RobustnessReport): string {
  const [b, s] = report.framings;
  const level = confidenceLevel(report.confidence);
  const rows = [
    ...report.games.map((g) => [
      g.player,
      g.game,
      fixed(g.R.estimate),
      fixed(g.R_bias_corrected),
      interval(g.R.ci),
      pValue(g.invariance.p_value),
      fixed(g.shift?.estimate),
      interval(g.shift?.ci),
    ]),
    ...report.players.map((p) => [
      p.player,
      "(all games)",
      fixed(p.R.estimate),
      fixed(p.R_bias_corrected),
      interval(p.R.ci),
      pValue(p.invariance.p_value),
      fixed(p.shift?.estimate),
      interval(p.shift?.ci),
    ]),
    [
      "(pooled)",
      "",
      fixed(report.pooled.R.estimate),
      fixed(report.pooled.R_bias_corrected),
      interval(report.pooled.R.ci),
      pValue(report.pooled.invariance.p_value),
      fixed(report.pooled.shift?.estimate),
      interval(report.pooled.shift?.ci),
    ],
  ];
  const lines = [
    printable(
      `Robustness over framings ${labelList(report.framings)} (variant ${report.variant}); shift = ${labelList([s ?? ""])} minus ${labelList([b ?? ""])}.`,
    ),
    `Bootstrap B = ${report.bootstrap}, seed ${report.seed}, unit ${printable(resamplingUnits(report))}, attenuation ${report.attenuation}${report.contrast ? `, ${report.contrast} contrast` : ""}.`,
    "",
    table(
      ["player", "game", "R", "R bias-corr.", `R ${level} CI`, "invariance p", "shift", `shift ${level} CI`],
      rows,
    ),
    "invariance p: permutation test that every framing shares one distribution; the R interval reaches 1 whenever p > 1 − confidence.",
    "",
    verificationText(report.checks, report.notes),
  ];
  for (const o of report.order_effect) {
    lines.push(
      `Order effect of ${printable(o.player)}: first-listed action chosen in ${fixed(o.first_listed_rate.estimate)} of ${o.decisions} two-action decisions, ${level} CI ${interval(o.first_listed_rate.ci)} (½ without an order effect).`,
    );
  }
  if (report.skipped.length > 0) {
    lines.push(
      `Left out (missing a framing): ${report.skipped.map((u) => `${printable(u.player)}/${u.game} lacks ${printable(labelList(u.missing))}`).join("; ")}.`,
    );
  }
  return lines.join("\n");
}
