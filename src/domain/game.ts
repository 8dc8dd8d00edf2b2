import { z } from "zod";
import { type ActionId, VARIANT_IDS, type VariantId } from "./types.js";

// One game family per file in games/. Payoffs are keyed by action ids so a reviewer reads
// `payoffs.defect.cooperate` as u1(defect, cooperate): the payoff of the row player (the agent) choosing
// defect against cooperate. A symmetric game stores only that; an asymmetric one (Battle of the Sexes,
// Matching Pennies) adds `column_payoffs[column action][row action]`, the column player's payoff.

/** `payoffs[own][other]` = the payoff of the player choosing `own` against `other`. */
export type PayoffTable = Readonly<Record<ActionId, Readonly<Record<ActionId, number>>>>;

/** Which surface names a variant is shown with: the familiar ones, or misleading counterfactual ones. */
export const LABEL_SETS = ["familiar", "counterfactual"] as const;
export type LabelSet = (typeof LABEL_SETS)[number];

/** The label set SPEC §1 gives each variant: label and joint counterfactuals carry misleading labels. */
const LABEL_SET_OF_VARIANT: Record<VariantId, LabelSet> = {
  base: "familiar",
  label: "counterfactual",
  payoff: "familiar",
  joint: "counterfactual",
};
/** Payoff and joint counterfactuals change the payoffs; base and label keep the game's. */
const VARIANTS_WITH_OWN_PAYOFFS: readonly VariantId[] = ["payoff", "joint"];

export interface GameVariant {
  readonly id: VariantId;
  readonly labelSet: LabelSet;
  /** The row player's (the agent's) payoffs, `[own][other]`. */
  readonly payoffs: PayoffTable;
  /** The column player's payoffs `[own][other]` when they differ from the row player's; null = symmetric. */
  readonly columnPayoffs: PayoffTable | null;
}

/** The other player's payoff when the agent plays `own` and the other plays `other`. */
export function otherPayoffOf(variant: GameVariant, own: ActionId, other: ActionId): number {
  return (variant.columnPayoffs ?? variant.payoffs)[other]?.[own] as number;
}

export interface Game {
  readonly id: string;
  /** For reviewers and reports only; never shown to agents. */
  readonly title: string;
  /** Canonical action ids in catalog order. */
  readonly actions: readonly ActionId[];
  readonly cooperativeAction: ActionId | null;
  /** 1 for a one-shot game; N for N rounds of the same stage game. */
  readonly rounds: number;
  readonly variants: Readonly<Partial<Record<VariantId, GameVariant>>>;
}

/**
 * Action ids are letters and hyphens only: an id is also the game's familiar label ("hold-out" is shown as
 * "Hold out"), and a digit in a label would be read as an amount by the payoff reader.
 */
const ACTION_ID = /^[a-z]+(-[a-z]+)*$/;

const payoffTableSchema = z.record(z.string(), z.record(z.string(), z.number()));

const variantSchema = z.strictObject({
  labels: z.enum(LABEL_SETS),
  payoffs: payoffTableSchema.optional(),
  column_payoffs: payoffTableSchema.optional(),
});

const gameFileSchema = z
  .strictObject({
    id: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "expected a lower-case id with hyphens"),
    title: z.string().min(1),
    actions: z
      .array(
        z.string().regex(ACTION_ID, {
          error: (issue) =>
            `expected an action id of lower-case letters a-z, words joined by single hyphens (no digits, as in "hold-out"), found ${JSON.stringify(issue.input)}`,
        }),
      )
      .min(2),
    cooperative_action: z.string().nullable(),
    rounds: z.int().min(1),
    payoffs: payoffTableSchema,
    column_payoffs: payoffTableSchema.optional(),
    variants: z.strictObject({
      base: variantSchema,
      label: variantSchema.optional(),
      payoff: variantSchema.optional(),
      joint: variantSchema.optional(),
    }),
  })
  .superRefine((file, ctx) => {
    const repeated = file.actions.find((action, i) => file.actions.indexOf(action) !== i);
    if (repeated !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["actions"],
        message: `expected distinct action ids, found "${repeated}" twice`,
      });
    }
    if (file.cooperative_action !== null && !file.actions.includes(file.cooperative_action)) {
      ctx.addIssue({
        code: "custom",
        path: ["cooperative_action"],
        message: `expected null or one of ${file.actions.join(", ")}`,
      });
    }
    if (file.actions.length > 6) {
      ctx.addIssue({ code: "custom", path: ["actions"], message: "expected at most 6 actions" });
    }
    checkCoversEveryProfile(file.payoffs, file.actions, ["payoffs"], ctx);
    if (file.column_payoffs !== undefined) {
      checkCoversEveryProfile(file.column_payoffs, file.actions, ["column_payoffs"], ctx);
    }
    for (const [id, variant] of Object.entries(file.variants) as [
      VariantId,
      z.infer<typeof variantSchema>,
    ][]) {
      if (variant === undefined) continue;
      if (variant.labels !== LABEL_SET_OF_VARIANT[id]) {
        ctx.addIssue({
          code: "custom",
          path: ["variants", id, "labels"],
          message: `expected "${LABEL_SET_OF_VARIANT[id]}" for the ${id} variant`,
        });
      }
      const ownPayoffs = VARIANTS_WITH_OWN_PAYOFFS.includes(id);
      if (ownPayoffs && variant.payoffs === undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["variants", id, "payoffs"],
          message: "expected its own payoffs",
        });
      }
      if (!ownPayoffs && variant.payoffs !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["variants", id, "payoffs"],
          message: `expected no payoffs: the ${id} variant uses the game's`,
        });
      }
      if (variant.payoffs !== undefined) {
        checkCoversEveryProfile(variant.payoffs, file.actions, ["variants", id, "payoffs"], ctx);
      }
      if (variant.column_payoffs !== undefined && variant.payoffs === undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["variants", id, "column_payoffs"],
          message: "expected column payoffs only beside the variant's own payoffs",
        });
      }
      if (variant.column_payoffs !== undefined) {
        checkCoversEveryProfile(
          variant.column_payoffs,
          file.actions,
          ["variants", id, "column_payoffs"],
          ctx,
        );
      }
    }
  });

function checkCoversEveryProfile(
  table: Record<string, Record<string, number>>,
  actions: readonly string[],
  path: (string | number)[],
  ctx: z.RefinementCtx,
): void {
  for (const own of Object.keys(table)) {
    if (!actions.includes(own)) {
      ctx.addIssue({
        code: "custom",
        path: [...path, own],
        message: `expected one of ${actions.join(", ")}`,
      });
    }
  }
  for (const own of actions) {
    const row = table[own];
    if (row === undefined) {
      ctx.addIssue({
        code: "custom",
        path: [...path, own],
        message: "expected a payoff row for this action",
      });
      continue;
    }
    for (const other of Object.keys(row)) {
      if (!actions.includes(other)) {
        ctx.addIssue({
          code: "custom",
          path: [...path, own, other],
          message: `expected one of ${actions.join(", ")}`,
        });
      }
    }
    for (const other of actions) {
      if (row[other] === undefined) {
        ctx.addIssue({
          code: "custom",
          path: [...path, own, other],
          message: "expected number, found no payoff",
        });
      }
    }
  }
}

/** A validated game from a file's parsed JSON; `source` (e.g. `games/x.json`) prefixes every error. */
export function parseGameFile(json: unknown, source: string): Game {
  const parsed = gameFileSchema.safeParse(json);
  if (!parsed.success) throw new Error(describeFileIssue(source, parsed.error));
  const file = parsed.data;
  const variants: Partial<Record<VariantId, GameVariant>> = {};
  for (const id of VARIANT_IDS) {
    const variant = file.variants[id];
    if (variant === undefined) continue;
    const columnPayoffs =
      variant.payoffs === undefined ? file.column_payoffs : (variant.column_payoffs ?? undefined);
    variants[id] = {
      id,
      labelSet: variant.labels,
      payoffs: variant.payoffs ?? file.payoffs,
      columnPayoffs: columnPayoffs ?? null,
    };
  }
  return {
    id: file.id,
    title: file.title,
    actions: file.actions,
    cooperativeAction: file.cooperative_action,
    rounds: file.rounds,
    variants,
  };
}

/** `games/x.json: variants.payoff.payoffs.defect.cooperate: expected number, received string` */
export function describeFileIssue(source: string, error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return `${source}: invalid`;
  const path = issue.path.length > 0 ? issue.path.map(String).join(".") : "(top level)";
  return `${source}: ${path}: ${issue.message.replace(/^Invalid input: /, "")}`;
}
