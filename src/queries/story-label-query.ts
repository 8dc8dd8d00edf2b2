import { type StoryLabelResult, storyLabelEffects } from "../analysis/story-labels/story-label-effects.js";
import { splitPresentationId } from "../domain/label-sets.js";
import type { VariantId } from "../domain/types.js";
import type { PlayDeps } from "../play/play-deps.js";
import { labelList } from "../report/label-list.js";
import { UsageError } from "../usage-error.js";
import { refuseAbsentPlayersAndGames } from "./absent-filter-values.js";
import { confidenceLevel, printable, pValue, unsignedZero } from "./format.js";
import { cellsFromRows } from "./one-shot-cells.js";

// `analyze story-labels`: one-shot counts grouped by SQLite, each framing presentation split into its story
// and label set by the catalog, then the two-way analysis of story-label-effects.ts.

export interface StoryLabelQuery {
  players?: string[];
  games?: string[];
  /** Stories to compare, the first the baseline (default: every story present, sorted). */
  stories?: string[];
  /** Label sets to compare, the first the baseline (default: every set present, story-true first). */
  labels?: string[];
  variant?: VariantId;
  study_id?: string;
  bootstrap?: number;
  seed?: number;
  confidence?: number;
}

export type StoryLabelReport = StoryLabelResult & { variant: string; study_id: string | null };

export function storyLabelReport(deps: PlayDeps, query: StoryLabelQuery): StoryLabelReport {
  const variant = query.variant ?? "base";
  refuseAbsentPlayersAndGames(deps, { ...query, variants: [variant] });
  const rows = deps.store.oneShotCellCounts({
    players: query.players,
    games: query.games,
    variants: [variant],
    study_id: query.study_id,
  });
  if (rows.length === 0) {
    throw new UsageError(
      `No one-shot decisions match variant ${variant}${query.study_id ? `, study ${query.study_id}` : ""}.`,
    );
  }
  const presentationOf = (framing: string) => {
    const known = deps.catalog.framings.find((f) => f.id === framing);
    if (known) return { story: known.presentation.framing, labels: known.presentation.labels };
    const split = splitPresentationId(framing);
    return { story: split.framing, labels: split.labels ?? "story-true" };
  };
  const inScope = cellsFromRows(rows);
  refuseAbsentPresentations(
    inScope.map((cell) => presentationOf(cell.framing)),
    query,
  );
  const cells = inScope.filter((cell) => {
    const at = presentationOf(cell.framing);
    return (
      (!query.stories || query.stories.includes(at.story)) &&
      (!query.labels || query.labels.includes(at.labels))
    );
  });
  const games = [...new Set(cells.map((c) => c.game))];
  try {
    const result = storyLabelEffects(cells, {
      presentationOf,
      focalAction: Object.fromEntries(games.map((g) => [g, deps.catalog.game(g).cooperativeAction])),
      stories: query.stories,
      labels: query.labels,
      bootstrap: query.bootstrap,
      seed: query.seed,
      confidence: query.confidence,
    });
    return { ...result, variant, study_id: query.study_id ?? null };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/**
 * Refuses a `--stories` or `--labels` value no decision in scope was made under, naming the ones there are:
 * a mistyped story otherwise came back as "No (player, game) has decisions in every combination of stories
 * business, bussiness …", and a label set alone as "found stories (none)", neither saying what was valid.
 */
function refuseAbsentPresentations(
  present: readonly { story: string; labels: string }[],
  query: Pick<StoryLabelQuery, "stories" | "labels">,
): void {
  for (const [flag, asked, values] of [
    ["--stories", query.stories, present.map((p) => p.story)],
    ["--labels", query.labels, present.map((p) => p.labels)],
  ] as const) {
    const known = new Set(values);
    const absent = (asked ?? []).filter((v) => !known.has(v));
    if (absent.length > 0)
      throw new UsageError(
        printable(
          `${flag} names ${labelList(absent)}, under which nothing matching was played; ${flag === "--stories" ? "stories" : "label sets"} with decisions: ${labelList([...known].sort())}.`,
        ),
      );
  }
}

/** "= 0.0123", or "< 0.0001" below four decimals (a p-value is never 0). */
const pEquals = (p: number) => {
  const text = pValue(p, 4);
  return text.startsWith("<") ? text : `= ${text}`;
};
/** Percentage points with their sign; one that rounds to zero is "+0.0 pp" (its float sign is noise). */
const pct = (x: number) => {
  const text = unsignedZero((100 * x).toFixed(1));
  return `${text.startsWith("-") ? "" : "+"}${text} pp`;
};
const ci = (e: { ci: [number, number] }) => `[${pct(e.ci[0])}, ${pct(e.ci[1])}]`;

/** A table per (player, game): the cells, then the main effect of each factor and the verdict. */
export function storyLabelText(report: StoryLabelReport): string {
  const lines = [
    `Story × labels (variant ${report.variant}${report.study_id ? `, study ${report.study_id}` : ""}): stories ${report.stories.join(", ")}; label sets ${report.labels.join(", ")}; ${report.bootstrap} bootstrap replicates, seed ${report.seed}, ${confidenceLevel(report.confidence)} intervals.`,
  ];
  for (const unit of report.units) {
    lines.push("", `${printable(unit.player)} / ${unit.game}: P(${unit.focal_action})`);
    for (const cell of unit.cells) {
      lines.push(
        `  ${cell.story.padEnd(24)} ${cell.labels.padEnd(11)} n=${String(cell.n).padEnd(5)} ${(100 * cell.p_focal).toFixed(1)}%`,
      );
    }
    for (const effect of [...unit.story_effects, ...unit.label_effects]) {
      lines.push(
        `  ${effect.factor === "story" ? "story " : "labels"} ${effect.baseline} → ${effect.comparison}: ${pct(effect.main.estimate)} ${ci(effect.main)}`,
      );
    }
    if (unit.interaction)
      lines.push(`  interaction: ${pct(unit.interaction.estimate)} ${ci(unit.interaction)}`);
    for (const test of unit.tests) {
      lines.push(
        `  test ${test.contrast}: p ${pEquals(test.p_value)}, Holm p ${pEquals(test.p_holm)}${test.significant ? " (significant)" : ""}`,
      );
    }
    lines.push(`  moved by: ${unit.verdict}`);
    if (unit.verdict === "interaction") {
      // The main effects of an interaction average opposite simple effects: where each factor acts.
      for (const effect of [...unit.story_effects, ...unit.label_effects]) {
        for (const simple of effect.simple) {
          lines.push(
            `    ${effect.factor} ${effect.baseline} → ${effect.comparison} at ${simple.at}: ${pct(simple.delta.estimate)} ${ci(simple.delta)}`,
          );
        }
      }
    }
  }
  lines.push("", `Verdict rule: ${report.verdict_rule}`);
  for (const note of report.notes) lines.push(printable(`Note (${note.name}): ${note.detail}`));
  for (const s of report.skipped)
    lines.push(`skipped ${printable(s.player)} / ${s.game}: no decisions in ${s.missing.join(", ")}`);
  return lines.join("\n");
}
