import { powerAnalysis } from "../analysis/power/power.js";
import { loadCatalog } from "../domain/catalog.js";
import { checkTrueR, plannedShift } from "../mcp/tools/analysis/power.js";
import { equilibriaReport, equilibriaText } from "../queries/equilibria-query.js";
import { powerText } from "../queries/power-text.js";
import { sensitivityReport, sensitivityText } from "../queries/sensitivity-query.js";
import { UsageError } from "../usage-error.js";
import { variantFlag } from "./analyze-robustness.js";
import { listFlag, numberFlag, type ParsedArgs, stringFlag } from "./command.js";
import { printResult, withDeps } from "./open-deps.js";

const seedRange = { min: 0, max: 2 ** 31 - 1, integer: true };

/** `analyze sensitivity`: what the `payoff_sensitivity` tool returns. */
export async function analyzeSensitivity(args: ParsedArgs): Promise<void> {
  await withDeps(args, (deps) => {
    const report = sensitivityReport(deps, {
      players: listFlag(args, "players"),
      games: listFlag(args, "games"),
      framings: listFlag(args, "framings"),
      variant: variantFlag(args),
      study_id: stringFlag(args, "study"),
      bootstrap: numberFlag(args, "bootstrap", { min: 1, max: 1_000_000, integer: true }),
      seed: numberFlag(args, "seed", seedRange),
      confidence: numberFlag(args, "confidence", { min: 0.5, max: 0.999 }),
    });
    printResult(args, report, sensitivityText(report));
  });
}

/**
 * `analyze equilibria --game ID [--variant V]`: what the `equilibria` tool returns. Game theory of the
 * catalog alone: no record is opened, so it works before anything was played (or with no --db at all).
 */
export async function analyzeEquilibria(args: ParsedArgs): Promise<void> {
  const game = stringFlag(args, "game");
  // The whole catalog, certified: a catalog that serve would refuse is refused here too, not half used.
  const catalog = loadCatalog();
  const games = catalog.games.map((g) => g.id).join(", ");
  if (!game) throw new UsageError(`analyze equilibria needs --game; games: ${games}.`);
  if (!catalog.games.some((g) => g.id === game)) {
    throw new UsageError(`Unknown game "${game}"; games: ${games}.`);
  }
  const report = equilibriaReport({ catalog }, game, variantFlag(args));
  printResult(args, report, equilibriaText(report));
}

/**
 * `analyze power --baseline P (--delta D | --comparison Q) [--n N] [--decisions-per-session M --rho ρ]
 * [--true-r R]`: what the `power` tool returns.
 */
export async function analyzePower(args: ParsedArgs): Promise<void> {
  const baseline = numberFlag(args, "baseline", { min: 0, max: 1 });
  if (baseline === undefined)
    throw new UsageError("analyze power needs --baseline (a cooperation rate from 0 to 1).");
  const shift = plannedShift({
    baseline,
    delta: numberFlag(args, "delta", { min: -1, max: 1 }),
    comparison: numberFlag(args, "comparison", { min: 0, max: 1 }),
  });
  const trueR = numberFlag(args, "true-r", { min: 0, max: 0.999999 });
  checkTrueR({ baseline, true_r: trueR });
  const result = powerAnalysis({
    baselineRate: baseline,
    shift,
    n: numberFlag(args, "n", { min: 1, max: 100_000, integer: true }),
    bootstrap: numberFlag(args, "bootstrap", { min: 100, max: 10_000, integer: true }) ?? 1_000,
    seed: numberFlag(args, "seed", seedRange),
    decisionsPerSession: numberFlag(args, "decisions-per-session", { min: 1, max: 10_000, integer: true }),
    intraSessionCorrelation: numberFlag(args, "rho", { min: 0, max: 1 }),
    trueR,
  });
  printResult(args, result, powerText(result));
}
