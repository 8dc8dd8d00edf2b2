import { createHash } from "node:crypto";
import { z } from "zod";
import { AdaptiveStoppingSchema, adaptiveRuleProblem } from "./adaptive/adaptive-design.js";
import { canonicalJson } from "./canonical-json.js";
import { objectOfKnownKeys } from "./known-keys.js";
import { LABEL_CHOICES, type LabelChoice, presentationId } from "./label-sets.js";
import { namedBoolean, namedChoice, namedSeed, namedWholeNumber } from "./named-value-schemas.js";
import { PROMPT_STYLES, type PromptStyle, VARIANT_IDS, type VariantId } from "./types.js";

const id = z.string().trim().min(1).max(100);

export const HISTORY_MODES = ["none", "last", "full"] as const;
export type HistoryMode = (typeof HISTORY_MODES)[number];

export const OpponentChoiceSchema = objectOfKnownKeys({
  id,
  params: z.record(z.string(), z.unknown()).default({}),
});
export type OpponentChoice = z.infer<typeof OpponentChoiceSchema>;

/** A planned contrast: the shift from `baseline` to `comparison` framing, in the listed games (all if none). */
export const PlannedContrastSchema = objectOfKnownKeys({
  baseline: id,
  comparison: id,
  games: z.array(id).max(50).optional(),
});
export type PlannedContrast = z.infer<typeof PlannedContrastSchema>;

/** A pre-registered design: frozen and hashed when registered; an unknown key anywhere is refused by name. */
export const StudyDesignSchema = objectOfKnownKeys({
  name: z.string().trim().min(1).max(200).describe("A name for people; the design hash identifies the study"),
  games: z.array(id).min(1).max(50).describe("Catalog game ids (list_games)"),
  variants: z
    .array(namedChoice(VARIANT_IDS, "variant"))
    .min(1)
    .max(4)
    .default(["base"])
    .describe("Variants of every game: base, label, payoff, joint (those a game lacks are skipped)"),
  framings: z
    .array(id)
    .min(1)
    .max(50)
    .describe("Framing ids; each cell uses those that certify for its game variant"),
  /**
   * The label sets each listed story is shown with, crossed with the stories: "story-true"
   * (the story's own words), "familiar" (the textbook names), "neutral" (letters). Absent = the framings
   * as listed, which may name a presentation directly (`business+familiar`).
   */
  labels: z
    .array(namedChoice(LABEL_CHOICES, "label set"))
    .min(1)
    .max(3)
    .optional()
    .describe(
      "Label sets crossed with the listed stories: story-true (the story's own words), familiar (textbook names), neutral (letters).",
    ),
  styles: z
    .array(namedChoice(PROMPT_STYLES, "style"))
    .min(1)
    .max(3)
    .default(["zero-shot"])
    .describe("Prompting styles"),
  opponents: z
    .array(OpponentChoiceSchema)
    .min(1)
    .max(20)
    .default([{ id: "random", params: {} }])
    .describe("Opponents with their params, checked at registration (list_games names them)"),
  trials_per_cell: namedWholeNumber(1, 100_000).describe("Trials of every cell per player"),
  seed: namedSeed().default(1).describe("Seed of the schedule and of every trial's random choices"),
  planned_contrasts: z
    .array(PlannedContrastSchema)
    .max(100)
    .default([])
    .describe("Baseline → comparison framing pairs of the design, the shifts planned in advance"),
  history_mode: namedChoice(HISTORY_MODES, "history mode")
    .default("full")
    .describe("Repeated games: which past rounds the prompt shows"),
  reveal_horizon: namedBoolean()
    .default(false)
    .describe("Repeated games: tell the agent the number of rounds"),
  adaptive: AdaptiveStoppingSchema.optional().describe(
    "Opt-in adaptive stopping: each (player, game) gets no more trials once its rule fires; trials_per_cell is then the maximum",
  ),
});
export type StudyDesign = z.infer<typeof StudyDesignSchema>;

/** One condition of a study: what a single trial plays. */
export interface StudyCell {
  game: string;
  variant: VariantId;
  framing: string;
  style: PromptStyle;
  opponent: OpponentChoice;
}

/** What the design needs to know of the catalog to expand its cells. */
export interface StudyCatalog {
  /** The variants a game has; throws naming the valid games for an unknown id. */
  variantsOf(game: string): readonly VariantId[];
  /** Ids of the framings that certify for a game variant. */
  framingIdsFor(game: string, variant: VariantId): readonly string[];
  /** Throws, naming the valid opponents, when the opponent is unknown or cannot play this game, or its
   * params are not ones it accepts. */
  checkOpponent(opponent: string, game: string, params?: unknown): void;
}

/**
 * Every cell of a design: games × variants × framings × styles × opponents, keeping only the variants a
 * game has and the framings that certify for each game variant. A listed name that yields no cell at all
 * is refused, naming what would.
 */
export function studyCells(design: StudyDesign, catalog: StudyCatalog): StudyCell[] {
  if (design.labels !== undefined) {
    const named = design.framings.find((framing) => framing.includes("+"));
    if (named !== undefined) {
      throw new Error(
        `The framing "${named}" already names a label set; with "labels" list the stories alone (e.g. "${named.split("+")[0]}").`,
      );
    }
    const labels = design.labels as readonly LabelChoice[];
    design = {
      ...design,
      framings: design.framings.flatMap((story) => labels.map((set) => presentationId(story, set))),
      labels: undefined,
    };
  }
  const cells: StudyCell[] = [];
  const usedVariants = new Set<string>();
  const usedFramings = new Set<string>();
  const applicableFramings = new Set<string>();
  for (const game of design.games) {
    const variants = design.variants.filter((v) => catalog.variantsOf(game).includes(v));
    for (const opponent of design.opponents) catalog.checkOpponent(opponent.id, game, opponent.params);
    for (const variant of variants) {
      usedVariants.add(variant);
      const applicable = catalog.framingIdsFor(game, variant);
      for (const f of applicable) applicableFramings.add(f);
      const framings = design.framings.filter((f) => applicable.includes(f));
      if (framings.length === 0) {
        throw new Error(
          `None of the framings ${design.framings.join(", ")} applies to ${game} (${variant}); framings that do: ${applicable.join(", ")}.`,
        );
      }
      for (const framing of framings) {
        usedFramings.add(framing);
        for (const style of design.styles) {
          for (const opponent of design.opponents) cells.push({ game, variant, framing, style, opponent });
        }
      }
    }
  }
  const unusedVariant = design.variants.find((v) => !usedVariants.has(v));
  if (unusedVariant) throw new Error(`No game of the study has the variant "${unusedVariant}".`);
  const unusedFraming = design.framings.find((f) => !usedFramings.has(f));
  if (unusedFraming) {
    throw new Error(
      `The framing "${unusedFraming}" applies to none of the study's games; framings that do: ${[...applicableFramings].sort().join(", ")}.`,
    );
  }
  checkPlannedContrasts(design);
  const ruleProblem = design.adaptive && adaptiveRuleProblem(design.adaptive);
  if (ruleProblem) throw new Error(ruleProblem);
  if (design.adaptive && design.adaptive.min_blocks > design.trials_per_cell) {
    throw new Error(
      `adaptive.min_blocks ${design.adaptive.min_blocks} is more than trials_per_cell ${design.trials_per_cell}: the rule would never look; use at most ${design.trials_per_cell}.`,
    );
  }
  return cells;
}

/** A planned contrast compares framings (and games) of this design; anything else is refused by name. */
function checkPlannedContrasts(design: StudyDesign): void {
  for (const contrast of design.planned_contrasts) {
    for (const framing of [contrast.baseline, contrast.comparison]) {
      if (!design.framings.includes(framing)) {
        throw new Error(
          `The planned contrast ${contrast.baseline} → ${contrast.comparison} names the framing "${framing}", which is not in the design; its framings: ${design.framings.join(", ")}.`,
        );
      }
    }
    if (contrast.baseline === contrast.comparison) {
      throw new Error(
        `The planned contrast ${contrast.baseline} → ${contrast.comparison} compares a framing with itself.`,
      );
    }
    for (const game of contrast.games ?? []) {
      if (!design.games.includes(game)) {
        throw new Error(
          `The planned contrast ${contrast.baseline} → ${contrast.comparison} names the game "${game}", which is not in the design; its games: ${design.games.join(", ")}.`,
        );
      }
    }
  }
}

/** SHA-256 of the design's canonical JSON (keys sorted), so the same design always hashes the same. */
export function designHash(design: StudyDesign): string {
  return createHash("sha256").update(canonicalJson(design)).digest("hex");
}
