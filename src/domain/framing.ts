import { z } from "zod";
import { describeFileIssue, LABEL_SETS, type LabelSet } from "./game.js";
import type { LabelChoice } from "./label-sets.js";
import { type LabelMap, wordsOf } from "./labels.js";
import type { Parties } from "./payoff-meaning.js";
import { placeholdersOf } from "./templates.js";
import type { ActionId } from "./types.js";

// One framing per file in framings/: the story, surface labels, units and wording that present a game.
// Its templates decide where labels and numbers appear, so certification (certify.ts) checks the framing's
// own text, not a renderer that could only ever be right.

export interface PayoffTableHeadings {
  readonly ownAction: string;
  readonly otherAction: string;
  readonly ownPayoff: string;
  readonly otherPayoff: string;
}

export interface RepeatedWording {
  /** Tells the number of rounds: `{rounds}`. */
  readonly horizonRevealed: string;
  /** Says the same counterpart is met round after round without telling how many rounds. */
  readonly horizonHidden: string;
  /** Opens the current round: `{round}`. */
  readonly roundHeading: string;
  readonly historyFullIntro: string;
  readonly historyLastIntro: string;
  /** One past round from the player's side: `{round}`, `{own_label}`, `{other_label}`, `{own_amount}`. */
  readonly outcome: string;
}

export interface Framing {
  /** The presentation id: the file id for its story-true labels, `file+familiar` / `file+neutral` otherwise. */
  readonly id: string;
  /** The framing file (the story) and the label set this presentation shows it with. */
  readonly presentation: { readonly framing: string; readonly labels: LabelChoice };
  /** Who is who: the phrases the framing's text uses for the agent and for the other party. */
  readonly parties: Parties;
  readonly appliesTo: {
    /**
     * The canonical actions the labels name: applies to every game with exactly this action set (the shape
     * the story fits). "any": every game of up to six actions, labelled by position (abstract framings).
     */
    readonly actions: readonly ActionId[] | "any";
    readonly labelSet: LabelSet;
    readonly play: "one-shot" | "repeated";
    /** Restricts the framing to these games; null = every game that matches the rest. */
    readonly games: readonly string[] | null;
  };
  /** The labels of this presentation; for an "any" framing, empty until resolved for a game. */
  readonly labels: LabelMap;
  /** An "any" framing's story-true labels, given to a game's actions in catalog order; else null. */
  readonly positionalLabels: readonly string[] | null;
  /** How an amount is written: `{n}` is the payoff; `one` is used when |n| = 1. */
  readonly units: { readonly one: string; readonly other: string };
  readonly story: readonly string[];
  readonly payoffs: {
    readonly intro: string;
    readonly table: PayoffTableHeadings | null;
    /** One sentence per profile: `{own_label}`, `{other_label}`, `{own_amount}`, `{other_amount}`. */
    readonly sentence: string | null;
    /** Hand-written sentences for some profiles, `[own][other]`, replacing `sentence` there. */
    readonly sentenceOverrides: Readonly<Record<ActionId, Readonly<Record<ActionId, string>>>>;
  };
  readonly question: string;
  readonly repeated: RepeatedWording | null;
  /**
   * The framing's own words and phrases that negate or reject a label beside them ("nimmer"), read with
   * the built-in ones of every language (negation-words.ts). Present only when the file declares them, so a
   * catalog without them keeps its fingerprint.
   */
  readonly negations?: readonly string[];
}

/** A template using only the given placeholders (each listed placeholder is allowed, none required). */
function template(...allowed: string[]) {
  return z
    .string()
    .min(1)
    .refine((text) => placeholdersOf(text).every((name) => allowed.includes(name)), {
      message: `expected placeholders only from: ${allowed.length > 0 ? allowed.map((name) => `{${name}}`).join(" ") : "(none)"}`,
    });
}

const PROFILE_SENTENCE = ["own_label", "other_label", "own_amount", "other_amount"];

/** A negation word or phrase: words, no digit (it would read as an amount), no template. */
const negation = z
  .string()
  .min(1)
  .max(60)
  .refine((text) => wordsOf(text).length > 0, { message: "expected a word or phrase, not only punctuation" })
  .refine((text) => !/\p{N}/u.test(text), { message: "expected no digit" })
  .refine((text) => placeholdersOf(text).length === 0, { message: "expected no placeholder" });

const framingFileSchema = z
  .strictObject({
    id: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "expected a lower-case id with hyphens"),
    applies_to: z.strictObject({
      actions: z.union([z.array(z.string()).min(2), z.literal("any")]),
      label_set: z.enum(LABEL_SETS),
      play: z.enum(["one-shot", "repeated"]),
      games: z.array(z.string()).min(1).optional(),
    }),
    labels: z.union([z.record(z.string(), z.string()), z.array(z.string()).length(6)]),
    parties: z.strictObject({
      self: z.array(z.string().min(1)).min(1),
      other: z.array(z.string().min(1)).min(1),
    }),
    units: z.strictObject({ one: template("n"), other: template("n") }),
    story: z.array(template()).min(1),
    payoffs: z.strictObject({
      intro: template(),
      table: z
        .strictObject({
          own_action: template(),
          other_action: template(),
          own_payoff: template(),
          other_payoff: template(),
        })
        .optional(),
      sentence: template(...PROFILE_SENTENCE).optional(),
      sentence_overrides: z
        .record(z.string(), z.record(z.string(), template(...PROFILE_SENTENCE)))
        .optional(),
    }),
    question: template(),
    repeated: z
      .strictObject({
        horizon_revealed: template("rounds"),
        horizon_hidden: template(),
        round_heading: template("round"),
        history_full_intro: template(),
        history_last_intro: template(),
        outcome: template("round", "own_label", "other_label", "own_amount"),
      })
      .optional(),
    negations: z.array(negation).min(1).max(100).optional(),
  })
  .superRefine((file, ctx) => {
    const actions = file.applies_to.actions === "any" ? [] : file.applies_to.actions;
    if (file.applies_to.actions === "any") {
      if (!Array.isArray(file.labels)) {
        ctx.addIssue({
          code: "custom",
          path: ["labels"],
          message: 'expected a list of six labels, given by position, for applies_to.actions "any"',
        });
      }
      if (file.payoffs.sentence_overrides !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["payoffs", "sentence_overrides"],
          message: 'expected no overrides for applies_to.actions "any"',
        });
      }
    }
    const labelled = Array.isArray(file.labels) ? [] : Object.keys(file.labels);
    const fixedActions = file.applies_to.actions !== "any";
    if (
      fixedActions &&
      (labelled.length !== actions.length || !actions.every((action) => labelled.includes(action)))
    ) {
      ctx.addIssue({
        code: "custom",
        path: ["labels"],
        message: `expected one label for each of ${actions.join(", ")}`,
      });
    }
    if (file.payoffs.table === undefined && file.payoffs.sentence === undefined) {
      ctx.addIssue({ code: "custom", path: ["payoffs"], message: "expected a table, a sentence or both" });
    }
    for (const [own, row] of Object.entries(file.payoffs.sentence_overrides ?? {})) {
      for (const other of [own, ...Object.keys(row)]) {
        if (!actions.includes(other)) {
          ctx.addIssue({
            code: "custom",
            path: ["payoffs", "sentence_overrides", own],
            message: `expected actions from ${actions.join(", ")}`,
          });
        }
      }
    }
    if (file.payoffs.sentence_overrides !== undefined && file.payoffs.sentence === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["payoffs", "sentence_overrides"],
        message: "expected a sentence for the profiles not overridden",
      });
    }
    if ((file.applies_to.play === "repeated") !== (file.repeated !== undefined)) {
      ctx.addIssue({
        code: "custom",
        path: ["repeated"],
        message: "expected round wording exactly when applies_to.play is repeated",
      });
    }
  });

/** A validated framing from a file's parsed JSON; `source` (e.g. `framings/x.json`) prefixes every error. */
export function parseFramingFile(json: unknown, source: string): Framing {
  const parsed = framingFileSchema.safeParse(json);
  if (!parsed.success) throw new Error(describeFileIssue(source, parsed.error));
  const file = parsed.data;
  const table = file.payoffs.table;
  const repeated = file.repeated;
  return {
    id: file.id,
    presentation: { framing: file.id, labels: "story-true" },
    parties: file.parties,
    appliesTo: {
      actions: file.applies_to.actions,
      labelSet: file.applies_to.label_set,
      play: file.applies_to.play,
      games: file.applies_to.games ?? null,
    },
    labels: Array.isArray(file.labels) ? {} : file.labels,
    positionalLabels: Array.isArray(file.labels) ? file.labels : null,
    units: file.units,
    story: file.story,
    payoffs: {
      intro: file.payoffs.intro,
      table: table
        ? {
            ownAction: table.own_action,
            otherAction: table.other_action,
            ownPayoff: table.own_payoff,
            otherPayoff: table.other_payoff,
          }
        : null,
      sentence: file.payoffs.sentence ?? null,
      sentenceOverrides: file.payoffs.sentence_overrides ?? {},
    },
    question: file.question,
    repeated: repeated
      ? {
          horizonRevealed: repeated.horizon_revealed,
          horizonHidden: repeated.horizon_hidden,
          roundHeading: repeated.round_heading,
          historyFullIntro: repeated.history_full_intro,
          historyLastIntro: repeated.history_last_intro,
          outcome: repeated.outcome,
        }
      : null,
    ...(file.negations !== undefined ? { negations: file.negations } : {}),
  };
}
