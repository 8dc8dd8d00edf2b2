// Verification checks (SPEC §4), computed from a finished result so they judge exactly what is reported.
// A failed check is reported with the values that failed it, never hidden and never "fixed".

export interface Check {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
}

export interface Estimate {
  readonly estimate: number;
  readonly ci: readonly [number, number];
}

/** The parts of a robustness result the checks read. */
export interface CheckedRobustness {
  readonly confidence: number;
  readonly games: readonly {
    readonly player: string;
    readonly game: string;
    readonly R: Estimate;
    readonly R2: Estimate;
    readonly shift: Estimate | null;
  }[];
  readonly players: readonly {
    readonly player: string;
    readonly R: Estimate;
    readonly shift: Estimate | null;
  }[];
  readonly pooled: { readonly R: Estimate; readonly shift: Estimate | null };
}

export interface DesignSize {
  readonly cells: number;
  readonly decisions: number;
}

interface Labelled {
  readonly label: string;
  readonly value: Estimate;
  readonly kind: "robustness" | "shift";
}

const show = (x: number): string => String(Number(x.toPrecision(6)));

function everyEstimate(result: CheckedRobustness): Labelled[] {
  const list: Labelled[] = [];
  for (const g of result.games) {
    list.push({ label: `R of ${g.player}/${g.game}`, value: g.R, kind: "robustness" });
    list.push({ label: `R2 of ${g.player}/${g.game}`, value: g.R2, kind: "robustness" });
    if (g.shift) list.push({ label: `shift of ${g.player}/${g.game}`, value: g.shift, kind: "shift" });
  }
  for (const p of result.players) {
    list.push({ label: `R of player ${p.player}`, value: p.R, kind: "robustness" });
    if (p.shift) list.push({ label: `shift of player ${p.player}`, value: p.shift, kind: "shift" });
  }
  list.push({ label: "pooled R", value: result.pooled.R, kind: "robustness" });
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

function containsCheck(items: Labelled[], confidence: number): Check {
  const bad = items.filter(({ value }) => !(value.ci[0] <= value.estimate && value.estimate <= value.ci[1]));
  const pct = `${show(confidence * 100)}%`;
  const explain = ({ label, value, kind }: Labelled): string => {
    const [lo, hi] = value.ci;
    const bounds = kind === "robustness" ? [0, 1] : [-1, 1];
    const side = value.estimate > hi ? "above" : "below";
    const onBoundary = bounds.includes(value.estimate);
    return (
      `${label} = ${show(value.estimate)} lies ${side} its ${pct} percentile interval [${show(lo)}, ${show(hi)}]` +
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

/** All SPEC §4 checks for a robustness result; the design checks only when the design's size is given. */
export function robustnessChecks(
  result: CheckedRobustness,
  observed: DesignSize,
  expected?: DesignSize,
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
    checks.push(designCheck("design_decisions", observed.decisions, expected.decisions));
  }
  return checks;
}
