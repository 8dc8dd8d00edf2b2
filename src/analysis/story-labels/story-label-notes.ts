// Why an effect's percentile interval can leave its estimate out, said beside the result rather than left
// for the reader to find: robustness and payoff_sensitivity say it in their notes, and story-labels, whose
// intervals are percentile intervals too, said nothing (at B = 2 a story effect of −0.400 came with the
// interval [−0.395, −0.205]).

/** Information about a result that is never a failure, as robustness and payoff_sensitivity give it. */
export interface StoryLabelNote {
  readonly name: "too_few_replicates" | "estimate_outside_interval";
  readonly detail: string;
}

/** An effect's estimate and interval, named as the text names it. */
export interface NamedInterval {
  readonly label: string;
  readonly estimate: number;
  readonly ci: readonly [number, number];
}

/**
 * Below this many replicates a percentile interval is about the range of the draws, and an estimate at the
 * median of the bootstrap distribution falls outside the range of B draws with probability 2·2^−B (6% at
 * B = 5): sampling alone. From 20 on that chance is under 2 in a million (as payoff_sensitivity counts it).
 */
export const FEWEST_REPLICATES = 20;

export function storyLabelNotes(intervals: readonly NamedInterval[], bootstrap: number): StoryLabelNote[] {
  const outside = intervals.filter((i) => !(i.ci[0] <= i.estimate && i.estimate <= i.ci[1]));
  if (outside.length === 0) return [];
  const listed = outside
    .map((i) => `${i.label} = ${i.estimate} lies outside its percentile interval [${i.ci.join(", ")}]`)
    .join("; ");
  if (bootstrap < FEWEST_REPLICATES)
    return [
      {
        name: "too_few_replicates",
        detail: `${listed}: with ${bootstrap} bootstrap replicate${bootstrap === 1 ? "" : "s"} an interval is about the range of the draws, which leaves out even a typical estimate by chance; ask for ${FEWEST_REPLICATES} or more (bootstrap, 10000 by default).`,
      },
    ];
  return [
    {
      name: "estimate_outside_interval",
      detail: `${listed}: a percentile interval of the redrawn cells (a cell that chose one action every time is redrawn from its smoothed rate) can sit beside the estimate; the verdict rests on the tests, not on the intervals.`,
    },
  ];
}
