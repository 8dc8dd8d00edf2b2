import { jensenShannon } from "../../domain/divergence.js";
import { byText } from "../../domain/text-order.js";
import type { ActionCounts, ActionId } from "../../domain/types.js";
import { type CountCell, validateCell } from "../count-cells.js";
import { holm } from "../multiple-testing/holm.js";
import { reportProgress } from "../progress/analysis-progress.js";
import { type BootstrapOptions, bootstrapSettings } from "../sampling/bootstrap-options.js";
import { bootstrapRate } from "../sampling/boundary-smoothing.js";
import { createBootstrapRng, type UniformSource } from "../sampling/fast-rng.js";
import { percentileInterval } from "../sampling/percentile.js";
import { normalUpperTail } from "./normal-tail.js";
import { type NamedInterval, type StoryLabelNote, storyLabelNotes } from "./story-label-notes.js";

// Did the story or the words move the agent? A study crosses stories (business,
// friend-sharing) with label sets (story-true, familiar); each (player, game) then has one cell per
// (story, labels). On the probability p of a focal action (the game's cooperative action), a 2 × 2
// crossing is a two-way layout:
//   story effect  = mean over label sets of p(story₂, l) − p(story₁, l)
//   label effect  = mean over stories of p(s, labels₂) − p(s, labels₁)
//   interaction   = [p(s₂,l₂) − p(s₁,l₂)] − [p(s₂,l₁) − p(s₁,l₁)]
// With more levels each later level is contrasted with the first. The simple effects (one factor at a
// fixed level of the other) are given too, with the JSD of the whole distributions. Intervals are
// percentile bootstrap intervals, each cell redrawn at its own n (by session when it has sessions).
//
// The verdict is one decision from several tests (every main-effect contrast and the interaction), so it
// controls the family-wise error: each contrast's z-test p-value, its variance computed at the pooled rate
// (what every cell shares under no effect; by session when cells have sessions), is Holm-adjusted over the
// family, and a contrast counts only when its adjusted p is at most 1 − confidence. (Percentile bootstrap
// intervals, the earlier rule, misjudge small cells: one that chose one action every time redraws as a
// certainty.) A significant interaction is the verdict itself — the main
// effects of a crossover average opposite simple effects away — and its simple effects say where the
// factors act.

export interface Presentation {
  readonly story: string;
  readonly labels: string;
}

export interface StoryLabelOptions extends BootstrapOptions {
  /** Story and label set of each framing presentation id. */
  readonly presentationOf: (framing: string) => Presentation;
  /** The action whose probability the effects are measured on, per game (default: its first action). */
  readonly focalAction?: Readonly<Record<string, ActionId | null>>;
  /** Order of the levels: the first is the baseline. Default: sorted, "story-true" first among labels. */
  readonly stories?: readonly string[];
  readonly labels?: readonly string[];
}

export interface Estimate {
  readonly estimate: number;
  readonly ci: [number, number];
}

export interface EffectContrast {
  readonly factor: "story" | "labels";
  readonly baseline: string;
  readonly comparison: string;
  /** Averaged over the levels of the other factor. */
  readonly main: Estimate;
  /** At each level of the other factor: Δp and the JSD of the two distributions. */
  readonly simple: { readonly at: string; readonly delta: Estimate; readonly jsd: number }[];
}

export interface StoryLabelUnit {
  readonly player: string;
  readonly game: string;
  readonly focal_action: ActionId;
  readonly cells: { story: string; labels: string; framing: string; n: number; p_focal: number }[];
  readonly story_effects: EffectContrast[];
  readonly label_effects: EffectContrast[];
  /** 2 × 2 crossings only (first two levels of each factor): difference of differences. */
  readonly interaction: Estimate | null;
  /** Every contrast the verdict rests on, with its bootstrap p-value and the Holm-adjusted one. */
  readonly tests: readonly EffectTest[];
  /**
   * What moved the agent, at family-wise error 1 − confidence: "interaction" when the interaction is
   * significant (read the simple effects), else the factors with a significant main effect.
   */
  readonly verdict: Verdict;
}

export type Verdict = "story" | "labels" | "both" | "interaction" | "neither";

export interface EffectTest {
  /** "story business → friend-sharing", "labels story-true → familiar" or "interaction". */
  readonly contrast: string;
  readonly estimate: number;
  /** Two-sided p-value of the contrast's z statistic, its variance at the unit's pooled rate (nullVariances). */
  readonly p_value: number;
  /** Holm's step-down adjustment over every test of the unit. */
  readonly p_holm: number;
  readonly significant: boolean;
}

/** How the verdict is reached: stated in every result. */
export const VERDICT_RULE =
  "Each main-effect contrast and the interaction is tested by a two-sided z test, its variance at the unit's pooled focal rate (by session when sessions made several decisions), Holm-adjusted over the unit's tests; a test counts when its adjusted p ≤ 1 − confidence, so a false verdict under no effect has probability at most about 1 − confidence where every cell holds 5 or more decisions (a cell of 1–3 decisions beside a large one can double it). A significant interaction is the verdict (read the simple effects); otherwise the factors with a significant main effect.";

export interface StoryLabelResult {
  readonly stories: string[];
  readonly labels: string[];
  readonly bootstrap: number;
  readonly seed: number;
  readonly confidence: number;
  readonly verdict_rule: string;
  readonly units: StoryLabelUnit[];
  /** (player, game) pairs left out because a (story, labels) combination has no decisions. */
  readonly skipped: { player: string; game: string; missing: string[] }[];
  /** Why an effect's interval leaves its estimate out, where one does (story-label-notes.ts). */
  readonly notes: StoryLabelNote[];
}

interface Grid {
  readonly actions: ActionId[];
  readonly focal: number;
  /** cells[s][l]. */
  readonly cells: { cell: CountCell; counts: number[]; n: number }[][];
}

export function storyLabelEffects(cells: readonly CountCell[], options: StoryLabelOptions): StoryLabelResult {
  const { bootstrap, seed, confidence } = bootstrapSettings(options);
  for (const cell of cells) validateCell(cell);
  const placed = cells.map((cell) => ({ cell, at: options.presentationOf(cell.framing) }));
  const stories = options.stories ?? [...new Set(placed.map((p) => p.at.story))].sort();
  const labels =
    options.labels ??
    [...new Set(placed.map((p) => p.at.labels))].sort((a, b) =>
      a === "story-true" ? -1 : b === "story-true" ? 1 : a < b ? -1 : a > b ? 1 : 0,
    );
  if (stories.length < 2 && labels.length < 2) {
    throw new Error(
      `Separating story from labels needs at least two stories or two label sets; found stories ${stories.join(", ") || "(none)"} and label sets ${labels.join(", ") || "(none)"}.`,
    );
  }
  const units: StoryLabelUnit[] = [];
  const skipped: StoryLabelResult["skipped"] = [];
  // Units in (player, game) order, each drawn from a stream of its own named by the unit: its intervals
  // then depend on its own cells alone, not on which units came before it (the cells arrive in an order
  // the record's session ids may set) nor on which others were asked for.
  const pairs = new Map(placed.map((p) => [JSON.stringify([p.cell.player, p.cell.game]), p.cell]));
  const keys = [...pairs.entries()]
    .sort(([, a], [, b]) => byText(a.player, b.player) || byText(a.game, b.game))
    .map(([key]) => key);
  // Each (player, game) is B redraws of every cell of its grid: seconds in all at 10,000 decisions, so the
  // CLI's progress line counts them (and a cancelled analysis stops between them).
  const stage = `bootstrap (${bootstrap.toLocaleString("en-US")} replicates)`;
  for (const [done, key] of keys.entries()) {
    reportProgress(stage, done, keys.length, "player and game");
    const [player, game] = JSON.parse(key) as [string, string];
    const rng = createBootstrapRng(`story-labels:${seed}:${key}`);
    const mine = placed.filter((p) => p.cell.player === player && p.cell.game === game);
    const find = (s: string, l: string) => mine.find((p) => p.at.story === s && p.at.labels === l)?.cell;
    const missing = stories.flatMap((s) => labels.flatMap((l) => (find(s, l) ? [] : [`${s} × ${l}`])));
    if (missing.length > 0) {
      skipped.push({ player, game, missing });
      continue;
    }
    const actions = [...new Set(mine.flatMap((p) => Object.keys(p.cell.counts)))].sort();
    const focalAction = options.focalAction?.[game] ?? (actions[0] as ActionId);
    if (!actions.includes(focalAction)) actions.push(focalAction);
    const grid: Grid = {
      actions,
      focal: actions.indexOf(focalAction as ActionId),
      cells: stories.map((s) =>
        labels.map((l) => {
          const cell = find(s, l) as CountCell;
          const counts = actions.map((a) => cell.counts[a] ?? 0);
          return { cell, counts, n: counts.reduce((x, y) => x + y, 0) };
        }),
      ),
    };
    units.push(analyseUnit(player, game, grid, stories, labels, { bootstrap, confidence, rng }));
  }
  reportProgress(stage, keys.length, keys.length, "player and game");
  if (units.length === 0) {
    throw new Error(
      `No (player, game) has decisions in every combination of stories ${stories.join(", ")} and label sets ${labels.join(", ")}.`,
    );
  }
  return {
    stories: [...stories],
    labels: [...labels],
    bootstrap,
    seed,
    confidence,
    verdict_rule: VERDICT_RULE,
    units,
    skipped,
    notes: storyLabelNotes(units.flatMap(unitIntervals), bootstrap),
  };
}

/** Every interval of a unit, named as the text names it. */
function unitIntervals(unit: StoryLabelUnit): NamedInterval[] {
  const at = `${unit.player}/${unit.game}`;
  return [
    ...[...unit.story_effects, ...unit.label_effects].flatMap((e) => [
      { label: `${at} ${e.factor} ${e.baseline} → ${e.comparison}`, ...e.main },
      // With one level of the other factor the simple effect is the main effect: listed once.
      ...(e.simple.length < 2 ? [] : e.simple).map((s) => ({
        label: `${at} ${e.factor} ${e.baseline} → ${e.comparison} at ${s.at}`,
        ...s.delta,
      })),
    ]),
    ...(unit.interaction ? [{ label: `${at} interaction`, ...unit.interaction }] : []),
  ];
}

/** p[s][l] of the focal action, from counts[s][l]. */
type Table = number[][];

function contrasts(
  p: Table,
  stories: readonly string[],
  labels: readonly string[],
): {
  story: number[];
  labels: number[];
  storySimple: number[][];
  labelSimple: number[][];
  interaction: number;
} {
  const S = stories.length;
  const L = labels.length;
  const row = (s: number) => p[s] as number[];
  const storySimple = stories
    .slice(1)
    .map((_, k) => labels.map((_, l) => (row(k + 1)[l] as number) - (row(0)[l] as number)));
  const labelSimple = labels
    .slice(1)
    .map((_, k) => stories.map((_, s) => (row(s)[k + 1] as number) - (row(s)[0] as number)));
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const interaction =
    S >= 2 && L >= 2
      ? (row(1)[1] as number) - (row(0)[1] as number) - ((row(1)[0] as number) - (row(0)[0] as number))
      : Number.NaN;
  return {
    story: storySimple.map(mean),
    labels: labelSimple.map(mean),
    storySimple,
    labelSimple,
    interaction,
  };
}

function analyseUnit(
  player: string,
  game: string,
  grid: Grid,
  stories: readonly string[],
  labels: readonly string[],
  settings: { bootstrap: number; confidence: number; rng: UniformSource },
): StoryLabelUnit {
  const pOf = (counts: readonly number[], n: number) => (counts[grid.focal] as number) / n;
  const observed = grid.cells.map((row) => row.map((c) => pOf(c.counts, c.n)));
  const point = contrasts(observed, stories, labels);
  // Bootstrap: every cell redrawn at its own n; the same replicate feeds every contrast.
  const B = settings.bootstrap;
  const reps = {
    story: point.story.map(() => new Float64Array(B)),
    labels: point.labels.map(() => new Float64Array(B)),
    storySimple: point.storySimple.map((xs) => xs.map(() => new Float64Array(B))),
    labelSimple: point.labelSimple.map((xs) => xs.map(() => new Float64Array(B))),
    interaction: new Float64Array(B),
  };
  for (let r = 0; r < B; r++) {
    const p = grid.cells.map((row) => row.map((c) => redrawFocalShare(c.cell, c.counts, grid, settings.rng)));
    const c = contrasts(p, stories, labels);
    c.story.forEach((v, k) => {
      (reps.story[k] as Float64Array)[r] = v;
    });
    c.labels.forEach((v, k) => {
      (reps.labels[k] as Float64Array)[r] = v;
    });
    c.storySimple.forEach((xs, k) => {
      xs.forEach((v, l) => {
        ((reps.storySimple[k] as Float64Array[])[l] as Float64Array)[r] = v;
      });
    });
    c.labelSimple.forEach((xs, k) => {
      xs.forEach((v, s) => {
        ((reps.labelSimple[k] as Float64Array[])[s] as Float64Array)[r] = v;
      });
    });
    reps.interaction[r] = c.interaction;
  }
  const est = (estimate: number, values: Float64Array): Estimate => ({
    estimate,
    ci: percentileInterval(values, settings.confidence),
  });
  const distribution = (s: number, l: number) => {
    const c = grid.cells[s]?.[l] as Grid["cells"][number][number];
    return c.counts.map((x) => x / c.n);
  };
  const storyEffects: EffectContrast[] = stories.slice(1).map((comparison, k) => ({
    factor: "story",
    baseline: stories[0] as string,
    comparison,
    main: est(point.story[k] as number, reps.story[k] as Float64Array),
    simple: labels.map((at, l) => ({
      at,
      delta: est(
        (point.storySimple[k] as number[])[l] as number,
        (reps.storySimple[k] as Float64Array[])[l] as Float64Array,
      ),
      jsd: jensenShannon(distribution(0, l), distribution(k + 1, l)),
    })),
  }));
  const labelEffects: EffectContrast[] = labels.slice(1).map((comparison, k) => ({
    factor: "labels",
    baseline: labels[0] as string,
    comparison,
    main: est(point.labels[k] as number, reps.labels[k] as Float64Array),
    simple: stories.map((at, s) => ({
      at,
      delta: est(
        (point.labelSimple[k] as number[])[s] as number,
        (reps.labelSimple[k] as Float64Array[])[s] as Float64Array,
      ),
      jsd: jensenShannon(distribution(s, 0), distribution(s, k + 1)),
    })),
  }));
  const hasInteraction = stories.length >= 2 && labels.length >= 2;
  const S = stories.length;
  const L = labels.length;
  // Each contrast as weights on the cells' focal shares, weight[s][l].
  const weights = (entries: [number, number, number][]): number[][] => {
    const w = stories.map(() => labels.map(() => 0));
    for (const [s, l, x] of entries) (w[s] as number[])[l] = ((w[s] as number[])[l] as number) + x;
    return w;
  };
  const family = [
    ...storyEffects.map((e, k) => ({
      contrast: `story ${e.baseline} → ${e.comparison}`,
      estimate: e.main.estimate,
      weights: weights(
        labels.flatMap((_, l) => [
          [k + 1, l, 1 / L] as [number, number, number],
          [0, l, -1 / L] as [number, number, number],
        ]),
      ),
    })),
    ...labelEffects.map((e, k) => ({
      contrast: `labels ${e.baseline} → ${e.comparison}`,
      estimate: e.main.estimate,
      weights: weights(
        stories.flatMap((_, s) => [
          [s, k + 1, 1 / S] as [number, number, number],
          [s, 0, -1 / S] as [number, number, number],
        ]),
      ),
    })),
    ...(hasInteraction
      ? [
          {
            contrast: "interaction",
            estimate: point.interaction,
            weights: weights([
              [1, 1, 1],
              [0, 1, -1],
              [1, 0, -1],
              [0, 0, 1],
            ]),
          },
        ]
      : []),
  ];
  const variances = nullVariances(grid);
  const tests = holmTests(
    family.map((f) => ({ ...f, p: contrastPValue(f.estimate, f.weights, variances) })),
    1 - settings.confidence,
  );
  const significant = (prefix: string) => tests.some((t) => t.significant && t.contrast.startsWith(prefix));
  const storyMoved = significant("story ");
  const labelsMoved = significant("labels ");
  const verdict: Verdict = significant("interaction")
    ? "interaction"
    : storyMoved && labelsMoved
      ? "both"
      : storyMoved
        ? "story"
        : labelsMoved
          ? "labels"
          : "neither";
  return {
    player,
    game,
    focal_action: grid.actions[grid.focal] as ActionId,
    cells: stories.flatMap((story, s) =>
      labels.map((label, l) => {
        const c = grid.cells[s]?.[l] as Grid["cells"][number][number];
        return { story, labels: label, framing: c.cell.framing, n: c.n, p_focal: observed[s]?.[l] as number };
      }),
    ),
    story_effects: storyEffects,
    label_effects: labelEffects,
    interaction: hasInteraction ? est(point.interaction, reps.interaction) : null,
    tests,
    verdict,
  };
}

/**
 * Each cell's focal-share variance where the tests are computed: at the unit's pooled focal rate p̄, the rate
 * every cell shares when nothing moves the agent. A cell of n decisions in its own sessions has
 * p̄(1 − p̄)/n; a cell whose sessions made several decisions takes the larger of that and the variance
 * between its sessions around p̄ (G/(G − 1) Σ (x_s − n_s p̄)² / n², G sessions), so correlated decisions
 * within a session are not counted as independent. Evaluating at p̄ rather than at each cell's own share
 * keeps a small cell that happened to choose one action every time from looking certain.
 */
function nullVariances(grid: Grid): number[][] {
  const all = grid.cells.flat();
  const total = all.reduce((sum, c) => sum + c.n, 0);
  const focalTotal = all.reduce((sum, c) => sum + (c.counts[grid.focal] as number), 0);
  const pooled = focalTotal / total;
  const focal = grid.actions[grid.focal] as ActionId;
  return grid.cells.map((row) =>
    row.map(({ cell, n }) => {
      const binomial = (pooled * (1 - pooled)) / n;
      const sessions = sessionsOf(cell);
      if (sessions.length < 2) return binomial;
      let sum = 0;
      for (const session of sessions) {
        const size = Object.values(session).reduce((a, b) => a + b, 0);
        sum += ((session[focal] ?? 0) - size * pooled) ** 2;
      }
      const between = ((sessions.length / (sessions.length - 1)) * sum) / (n * n);
      return Math.max(binomial, between);
    }),
  );
}

/** Two-sided p-value of "the contrast Σ w·p is 0" by its z statistic under nullVariances. */
function contrastPValue(
  estimate: number,
  weights: readonly number[][],
  variances: readonly number[][],
): number {
  let variance = 0;
  weights.forEach((row, s) => {
    row.forEach((w, l) => {
      variance += w * w * ((variances[s] as number[])[l] as number);
    });
  });
  // No variance at the pooled rate means every decision chose one action: nothing differs.
  if (!(variance > 0)) return 1;
  return Math.min(1, 2 * normalUpperTail(Math.abs(estimate) / Math.sqrt(variance)));
}

/** Each test with its Holm-adjusted p over the unit's family, significant when that is at most alpha. */
function holmTests(
  family: readonly { contrast: string; estimate: number; p: number }[],
  alpha: number,
): EffectTest[] {
  const adjusted = holm(family.map((f) => f.p));
  return family.map((f, i) => ({
    contrast: f.contrast,
    estimate: f.estimate,
    p_value: f.p,
    p_holm: adjusted[i] as number,
    significant: (adjusted[i] as number) <= alpha,
  }));
}

/** One bootstrap draw of a cell's focal share: its sessions with replacement, or its decisions (bootstrapRate). */
function redrawFocalShare(
  cell: CountCell,
  counts: readonly number[],
  grid: Grid,
  rng: UniformSource,
): number {
  const focal = grid.actions[grid.focal] as ActionId;
  const n = counts.reduce((a, b) => a + b, 0);
  const x = counts[grid.focal] as number;
  const sessions = sessionsOf(cell);
  // A cell whose every decision chose the focal action (or none did) is redrawn from its smoothed rate,
  // sessions or not: resampling it can only reproduce it.
  if (sessions.length > 1 && x > 0 && x < n) {
    let hits = 0;
    let n = 0;
    for (let i = 0; i < sessions.length; i++) {
      const session = sessions[(rng.next() * sessions.length) | 0] as ActionCounts;
      hits += session[focal] ?? 0;
      n += Object.values(session).reduce((a, b) => a + b, 0);
    }
    return hits / n;
  }
  const p = bootstrapRate(x, n);
  let hits = 0;
  for (let i = 0; i < n; i++) if (rng.next() < p) hits++;
  return hits / n;
}

/**
 * The sessions that decided in a cell, each as often as it stands for (`cluster_weights`: a cell's
 * decisions without a session are listed once per action, weighted by how many there are, and each is a
 * session of its own).
 */
function sessionsOf(cell: CountCell): ActionCounts[] {
  return (cell.clusters ?? []).flatMap((session, i) =>
    Object.values(session).some((c) => c > 0)
      ? Array.from({ length: cell.cluster_weights?.[i] ?? 1 }, () => session)
      : [],
  );
}
