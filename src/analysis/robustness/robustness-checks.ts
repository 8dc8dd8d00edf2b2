// Verification checks (SPEC §4), computed from a finished result so they judge exactly what is reported.
// A check is an invariant: on healthy data it passes, so a failed check means something is wrong, and it
// is reported with the values that failed it, never hidden and never "fixed". What is only information
// about the result (where an interval sits, a bias-corrected R beside its interval) is a note instead.

export interface Check {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
}

/** Information about a result that is not a pass/fail verdict: nothing is wrong when a note is present. */
export interface Note {
  readonly name: string;
  readonly detail: string;
}

export interface Estimate {
  readonly estimate: number;
  readonly ci: readonly [number, number];
}

/** What the checks read of an R: its interval, and the bias-corrected estimate the interval is built on. */
interface CheckedR {
  readonly R: Estimate;
  readonly R_bias_corrected?: number;
  readonly invariance?: { readonly p_value: number };
}

/** The parts of a robustness result the checks read. */
export interface CheckedRobustness {
  readonly confidence: number;
  readonly games: readonly (CheckedR & {
    readonly player: string;
    readonly game: string;
    readonly R2: Estimate;
    readonly shift: Estimate | null;
  })[];
  readonly players: readonly (CheckedR & {
    readonly player: string;
    readonly shift: Estimate | null;
  })[];
  readonly pooled: CheckedR & { readonly shift: Estimate | null };
}

export interface DesignSize {
  readonly cells: number;
  readonly decisions: number;
}

/** What the registered design plans for the analysed cells, and where the record holds more than that. */
export interface PlannedSize extends DesignSize {
  /** The analysed cells holding more decisions than the design plans for them, as "player/game/framing:
   * 4 of 3"; a cell the design lacks has 0 planned. */
  readonly over: readonly string[];
  /** The planned trials of the analysed cells that were played but ended without a valid decision (void
   * after five invalid replies, or forfeit): played, so not "in progress", yet no decision to analyse. */
  readonly without_decision?: number;
}

interface Labelled {
  readonly label: string;
  readonly value: Estimate;
  readonly kind: "robustness" | "shift";
  /** For R: the bias-corrected estimate its interval is centred on, and the invariance p-value. */
  readonly centre?: number;
  readonly pValue?: number;
}

const show = (x: number): string => String(Number(x.toPrecision(6)));

function everyEstimate(result: CheckedRobustness): Labelled[] {
  const list: Labelled[] = [];
  const r = (label: string, x: CheckedR): Labelled => ({
    label,
    value: x.R,
    kind: "robustness",
    ...(x.R_bias_corrected === undefined ? {} : { centre: x.R_bias_corrected }),
    ...(x.invariance === undefined ? {} : { pValue: x.invariance.p_value }),
  });
  for (const g of result.games) {
    list.push(r(`R of ${g.player}/${g.game}`, g));
    list.push({ label: `R2 of ${g.player}/${g.game}`, value: g.R2, kind: "robustness" });
    if (g.shift) list.push({ label: `shift of ${g.player}/${g.game}`, value: g.shift, kind: "shift" });
  }
  for (const p of result.players) {
    list.push(r(`R of player ${p.player}`, p));
    if (p.shift) list.push({ label: `shift of player ${p.player}`, value: p.shift, kind: "shift" });
  }
  list.push(r("pooled R", result.pooled));
  if (result.pooled.shift) list.push({ label: "pooled shift", value: result.pooled.shift, kind: "shift" });
  return list;
}

function rangeCheck(name: string, items: Labelled[], lo: number, hi: number): Check {
  const bad = items.filter(({ value }) => [value.estimate, ...value.ci].some((x) => !(x >= lo && x <= hi)));
  return {
    name,
    ok: bad.length === 0,
    detail:
      bad.length === 0
        ? `All ${items.length} estimates and interval ends lie in [${lo}, ${hi}].`
        : `Outside [${lo}, ${hi}]: ${bad.map((b) => `${b.label} = ${show(b.value.estimate)} [${b.value.ci.map(show).join(", ")}]`).join("; ")}.`,
  };
}

const inside = (x: number, [lo, hi]: readonly [number, number]): boolean => lo <= x && x <= hi;

/**
 * Every interval must contain its estimate. Both R intervals contain the plug-in R by construction (the
 * test-inversion one starts from it; the bootstrap one is bias-adjusted to be centred on it — a raw
 * percentile interval of a max over many pairs can lie wholly below it).
 */
function containsCheck(items: Labelled[], confidence: number): Check {
  const bad = items.filter(({ value }) => !inside(value.estimate, value.ci));
  const pct = `${show(confidence * 100)}%`;
  const explain = ({ label, value, kind }: Labelled): string => {
    const [lo, hi] = value.ci;
    const bounds = kind === "robustness" ? [0, 1] : [-1, 1];
    const side = value.estimate > hi ? "above" : "below";
    const onBoundary = bounds.includes(value.estimate);
    return (
      `${label} = ${show(value.estimate)} lies ${side} its ${pct} interval [${show(lo)}, ${show(hi)}]` +
      (onBoundary
        ? `: the estimate sits on the boundary of [${bounds.join(", ")}], which resampled data can only move away from`
        : "")
    );
  };
  return {
    name: "ci_contains_estimate",
    ok: bad.length === 0,
    detail:
      bad.length === 0
        ? `All ${items.length} intervals contain their estimates.`
        : `${bad.map(explain).join("; ")}; the interval is reported as computed, not widened.`,
  };
}

/** The bias-corrected R is reported beside the interval and, when the max-JSD bias is large, may lie outside it. */
function correctedOutsideNote(items: Labelled[]): Note | null {
  const outside = items.filter(({ value, centre }) => centre !== undefined && !inside(centre, value.ci));
  if (outside.length === 0) return null;
  return {
    name: "bias_corrected_outside_interval",
    detail: `Bias-corrected R outside the interval (a large max-JSD bias; read R with care): ${outside
      .map(
        (i) =>
          `${i.label} = ${show(i.value.estimate)}, bias-corrected ${show(i.centre as number)}, interval [${i.value.ci.map(show).join(", ")}]`,
      )
      .join("; ")}.`,
  };
}

/**
 * Names every interval computed at a boundary, where it reads "consistent with the bound" rather than as a
 * bootstrap interval: an R interval reaching 1 (there the upper end comes from the permutation test not
 * rejecting invariance), an estimate on its bound, or a shift interval that touches ±1 or is a single point
 * (a cell whose decisions all chose one action cannot vary when resampled). A deterministic agent or an
 * agent the story does not move lands here on healthy data, so this is a note, not a check; null when no
 * interval sits at a boundary.
 */
function boundaryNote(items: Labelled[]): Note | null {
  const atBoundary = (i: Labelled): string | null => {
    const [lo, hi] = i.value.ci;
    const bounds = i.kind === "robustness" ? [0, 1] : [-1, 1];
    if (i.kind === "robustness" && hi === 1) {
      const p = i.pValue === undefined ? "" : ` (invariance p = ${show(i.pValue)})`;
      return `${i.label}: upper end 1 by test inversion${p}`;
    }
    if (bounds.includes(i.value.estimate))
      return `${i.label}: estimate ${show(i.value.estimate)} on the bound`;
    if (bounds.includes(lo) || bounds.includes(hi))
      return `${i.label}: interval [${show(lo)}, ${show(hi)}] touches the bound`;
    if (lo === hi) return `${i.label}: the interval is the single point ${show(lo)} (no resampled variation)`;
    return null;
  };
  const found = items.flatMap((i) => {
    const why = atBoundary(i);
    return why === null ? [] : [why];
  });
  if (found.length === 0) return null;
  return {
    name: "interval_at_boundary",
    detail: `Computed at a boundary (read as "consistent with the bound", not as a bootstrap interval): ${found.join("; ")}.`,
  };
}

function meanCheck(result: CheckedRobustness): Check {
  const problems: string[] = [];
  const compare = (label: string, reported: number | undefined, parts: number[]): void => {
    if (parts.length === 0 || reported === undefined) return;
    const mean = parts.reduce((s, x) => s + x, 0) / parts.length;
    if (mean !== reported)
      problems.push(`${label} is ${reported} but the mean of its ${parts.length} parts is ${mean}`);
  };
  for (const p of result.players) {
    const own = result.games.filter((g) => g.player === p.player);
    compare(
      `R of player ${p.player}`,
      p.R.estimate,
      own.map((g) => g.R.estimate),
    );
    compare(
      `shift of player ${p.player}`,
      p.shift?.estimate,
      own.flatMap((g) => (g.shift ? [g.shift.estimate] : [])),
    );
  }
  compare(
    "pooled R",
    result.pooled.R.estimate,
    result.games.map((g) => g.R.estimate),
  );
  compare(
    "pooled shift",
    result.pooled.shift?.estimate,
    result.games.flatMap((g) => (g.shift ? [g.shift.estimate] : [])),
  );
  return {
    name: "aggregates_are_means",
    ok: problems.length === 0,
    detail:
      problems.length === 0
        ? "Every player value is the unrounded mean of its games and the pooled values the mean over every (player, game)."
        : `${problems.join("; ")}.`,
  };
}

function designCheck(name: "design_cells" | "design_decisions", observed: number, expected: number): Check {
  const what = name === "design_cells" ? "cells" : "decisions";
  return {
    name,
    ok: observed === expected,
    detail: `${observed} ${what} analysed; the design says ${expected}.`,
  };
}

/** A record that is a prefix of the design: fewer trials played than it plans, and no cell beyond its plan.
 * A trial that ended without a valid decision (void, forfeit) is played: it counts beside the decisions. */
function inProgress(observed: DesignSize, expected: PlannedSize): boolean {
  return expected.over.length === 0 && played(observed, expected) < expected.decisions;
}

function played(observed: DesignSize, expected: PlannedSize): number {
  return observed.decisions + (expected.without_decision ?? 0);
}

/** " and 2 trials played without a valid decision (void or forfeit)", or nothing when there are none. */
function withoutDecisionText(expected: PlannedSize): string {
  const n = expected.without_decision ?? 0;
  return n === 0
    ? ""
    : ` and ${n} trial${n === 1 ? "" : "s"} played without a valid decision (void or forfeit)`;
}

/**
 * The record against the design's decisions. Fewer than planned with no cell beyond its plan is a study
 * still being played (an interim look is normal; the note `study_in_progress` says so), not a failure;
 * more than planned anywhere, or in a cell the design lacks, is.
 */
function decisionsCheck(observed: DesignSize, expected: PlannedSize): Check {
  const without = withoutDecisionText(expected);
  if (inProgress(observed, expected)) {
    return {
      name: "design_decisions",
      ok: true,
      detail: `${observed.decisions} decisions analysed${without} of the ${expected.decisions} the design plans, none beyond a cell's plan: the study is in progress.`,
    };
  }
  if (without !== "" && expected.over.length === 0 && played(observed, expected) === expected.decisions) {
    return {
      name: "design_decisions",
      ok: true,
      detail: `${observed.decisions} decisions analysed${without}: the ${expected.decisions} trials the design plans, all played.`,
    };
  }
  const check = designCheck("design_decisions", observed.decisions, expected.decisions);
  if (expected.over.length === 0) return check;
  return {
    ...check,
    ok: false,
    detail: `${check.detail.slice(0, -1)}; more decisions than the design plans in ${expected.over.join("; ")}.`,
  };
}

/** The study is still being played: how many of its planned trials are not, so the result is an interim one. */
function inProgressNote(observed: DesignSize, expected: PlannedSize | undefined): Note | null {
  if (!expected || !inProgress(observed, expected)) return null;
  const unplayed = expected.decisions - played(observed, expected);
  return {
    name: "study_in_progress",
    detail: `The study is in progress: ${unplayed} of the ${expected.decisions} trials the design plans for the analysed players, games and framings ${unplayed === 1 ? "is" : "are"} not played yet; this is an interim look.`,
  };
}

/** All SPEC §4 checks for a robustness result; the design checks only when the design's size is given. */
export function robustnessChecks(
  result: CheckedRobustness,
  observed: DesignSize,
  expected?: PlannedSize,
): Check[] {
  const items = everyEstimate(result);
  const orderedBad = items.filter(({ value }) => !(value.ci[0] <= value.ci[1]));
  const checks: Check[] = [
    rangeCheck(
      "r_in_unit_interval",
      items.filter((i) => i.kind === "robustness"),
      0,
      1,
    ),
    rangeCheck(
      "shifts_in_range",
      items.filter((i) => i.kind === "shift"),
      -1,
      1,
    ),
    {
      name: "ci_ordered",
      ok: orderedBad.length === 0,
      detail:
        orderedBad.length === 0
          ? `All ${items.length} intervals have lower ≤ upper.`
          : `Reversed: ${orderedBad.map((b) => `${b.label} [${b.value.ci.map(show).join(", ")}]`).join("; ")}.`,
    },
    containsCheck(items, result.confidence),
    meanCheck(result),
  ];
  if (expected) {
    checks.push(designCheck("design_cells", observed.cells, expected.cells));
    checks.push(decisionsCheck(observed, expected));
  }
  return checks;
}

/**
 * The invariance p-value is (1 + #{T* ≥ T})/(1 + B), never below 1/(1 + B): with fewer than 1/α − 1
 * permutations (19 at α = 0.05) the test cannot reject at α whatever the record, so every R interval's
 * upper end, which is the test's verdict at R = 1, is 1 by construction. Null when B lets it reject.
 */
function permutationsNote(permutations: number, confidence: number): Note | null {
  const alpha = 1 - confidence;
  // The same comparison as the test's verdict (robustness-interval.ts), at the smallest p it can give.
  if (1 / (1 + permutations) <= alpha) return null;
  // The fewest permutations that pass the same comparison (1/α − 1, give or take α's last bit).
  let needed = Math.max(1, Math.floor(1 / alpha - 1));
  while (1 / (1 + needed) > alpha) needed++;
  return {
    name: "permutations_too_few",
    detail:
      `With ${permutations} permutation${permutations === 1 ? "" : "s"} the invariance p-value is at least ` +
      `1/${permutations + 1} = ${show(1 / (permutations + 1))}, above 1 − confidence = ${show(alpha)}: the test ` +
      `cannot reject invariance at this level, so every R interval reaches 1 by construction and says nothing ` +
      `about R = 1. Ask for ${needed} or more (bootstrap, 10000 by default).`,
  };
}

/**
 * The notes of a robustness result: too few permutations for the test to reject, where its intervals sit,
 * bias-corrected values outside them, and a study still in progress.
 */
export function robustnessNotes(
  result: CheckedRobustness,
  permutations: number,
  observed: DesignSize,
  expected?: PlannedSize,
): Note[] {
  const items = everyEstimate(result);
  return [
    permutationsNote(permutations, result.confidence),
    boundaryNote(items),
    correctedOutsideNote(items),
    inProgressNote(observed, expected),
  ].filter((n): n is Note => n !== null);
}
