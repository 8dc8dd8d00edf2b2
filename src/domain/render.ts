import type { Framing } from "./framing.js";
import { type Game, type GameVariant, otherPayoffOf } from "./game.js";
import { joinAlternatives } from "./labels.js";
import { fillTemplate } from "./templates.js";
import type { ActionId, PromptStyle } from "./types.js";

// Pure rendering of what an agent is shown. Everything game-specific comes from the framing's templates;
// the only fixed wording here is the prompting style and the closing answer instruction, both written so
// they reveal nothing about the study (no game names, no mention of comparing presentations).

export const HISTORY_MODES = ["none", "last", "full"] as const;
export type HistoryMode = (typeof HISTORY_MODES)[number];

/** One past round from the evaluated player's side, in canonical ids; null = no valid move that round. */
export interface RoundRecord {
  readonly own: ActionId | null;
  readonly other: ActionId | null;
  readonly ownPoints: number;
}

export interface RepeatedContext {
  /** 1-based number of the round being asked for. */
  readonly round: number;
  readonly horizon: "revealed" | "hidden";
  readonly historyMode: HistoryMode;
  /** Rounds 1 .. round−1, oldest first. */
  readonly history: readonly RoundRecord[];
}

export interface PromptRequest {
  readonly game: Game;
  readonly variant: GameVariant;
  readonly framing: Framing;
  /** A permutation of the game's actions: the order of payoff rows, sentences and choices. */
  readonly actionOrder: readonly ActionId[];
  readonly style: PromptStyle;
  /** Required for repeated games (rounds > 1), refused for one-shot games. */
  readonly repeated?: RepeatedContext;
}

const STYLE_INSTRUCTIONS: Record<PromptStyle, string | null> = {
  "zero-shot": null,
  "chain-of-thought":
    "Think it through step by step before you decide, then give your final choice alone on the last line of your reply.",
  persona:
    "Before you decide, imagine three experts with different backgrounds each giving you brief advice on this decision. Weigh what they say, then give your final choice alone on the last line of your reply.",
};

/** How a round without a valid move reads in the history (the round scored 0 for both sides). */
const NO_VALID_MOVE = "no valid answer";

/** An amount in the framing's units, e.g. `$5 million` or `-1 point`. */
export function formatAmount(framing: Framing, amount: number): string {
  return fillTemplate(Math.abs(amount) === 1 ? framing.units.one : framing.units.other, { n: amount });
}

function label(framing: Framing, action: ActionId): string {
  const surface = framing.labels[action];
  if (surface === undefined) throw new Error(`Framing "${framing.id}" has no label for action "${action}".`);
  return surface;
}

/** The prompt text for one decision. */
export function renderPrompt(request: PromptRequest): string {
  const { game, variant, framing, actionOrder, style, repeated } = request;
  checkActionOrder(game, actionOrder);
  if (game.rounds > 1 !== (repeated !== undefined)) {
    throw new Error(
      `Game "${game.id}" has ${game.rounds} round(s), so round context must be ${game.rounds > 1 ? "given" : "omitted"}.`,
    );
  }
  const sections: string[] = [...framing.story];
  if (repeated !== undefined) {
    const wording = repeatedWording(framing);
    sections.push(
      repeated.horizon === "revealed"
        ? fillTemplate(wording.horizonRevealed, { rounds: game.rounds })
        : wording.horizonHidden,
    );
  }
  sections.push(framing.payoffs.intro, ...renderPayoffs(variant, framing, actionOrder));
  if (repeated !== undefined) sections.push(...renderHistory(framing, repeated));
  sections.push(framing.question);
  const instruction = STYLE_INSTRUCTIONS[style];
  if (instruction !== null) sections.push(instruction);
  sections.push(
    `Answer with exactly one of: ${joinAlternatives(actionOrder.map((a) => label(framing, a)))}.`,
  );
  return sections.join("\n\n");
}

/** One past round in the framing's words, e.g. "Round 3: you chose Cooperate, they chose Defect; you got 1 point." */
export function renderRoundOutcome(framing: Framing, round: number, record: RoundRecord): string {
  return fillTemplate(repeatedWording(framing).outcome, {
    round,
    own_label: record.own === null ? NO_VALID_MOVE : label(framing, record.own),
    other_label: record.other === null ? NO_VALID_MOVE : label(framing, record.other),
    own_amount: formatAmount(framing, record.ownPoints),
  });
}

function renderPayoffs(variant: GameVariant, framing: Framing, order: readonly ActionId[]): string[] {
  const profiles = order.flatMap((own) => order.map((other) => ({ own, other })));
  const payoff = (own: ActionId, other: ActionId) => variant.payoffs[own]?.[other] as number;
  const blocks: string[] = [];
  const table = framing.payoffs.table;
  if (table !== null) {
    const rows = profiles.map(
      ({ own, other }) =>
        `| ${label(framing, own)} | ${label(framing, other)} | ${formatAmount(framing, payoff(own, other))} | ${formatAmount(framing, otherPayoffOf(variant, own, other))} |`,
    );
    blocks.push(
      [
        `| ${table.ownAction} | ${table.otherAction} | ${table.ownPayoff} | ${table.otherPayoff} |`,
        "|---|---|---|---|",
        ...rows,
      ].join("\n"),
    );
  }
  const sentence = framing.payoffs.sentence;
  if (sentence !== null) {
    const lines = profiles.map(({ own, other }) => {
      const text = framing.payoffs.sentenceOverrides[own]?.[other] ?? sentence;
      return `- ${fillTemplate(text, {
        own_label: label(framing, own),
        other_label: label(framing, other),
        own_amount: formatAmount(framing, payoff(own, other)),
        other_amount: formatAmount(framing, otherPayoffOf(variant, own, other)),
      })}`;
    });
    blocks.push(lines.join("\n"));
  }
  return blocks;
}

function renderHistory(framing: Framing, context: RepeatedContext): string[] {
  const wording = repeatedWording(framing);
  if (context.history.length !== context.round - 1) {
    throw new Error(
      `Round ${context.round} needs ${context.round - 1} past round(s), got ${context.history.length}.`,
    );
  }
  const shown =
    context.historyMode === "full"
      ? context.history.map((record, i) => ({ record, round: i + 1 }))
      : context.historyMode === "last" && context.history.length > 0
        ? [{ record: context.history.at(-1) as RoundRecord, round: context.history.length }]
        : [];
  const sections: string[] = [];
  if (shown.length > 0) {
    const intro = context.historyMode === "full" ? wording.historyFullIntro : wording.historyLastIntro;
    sections.push(
      [intro, ...shown.map(({ record, round }) => renderRoundOutcome(framing, round, record))].join("\n"),
    );
  }
  sections.push(fillTemplate(wording.roundHeading, { round: context.round }));
  return sections;
}

function repeatedWording(framing: Framing) {
  if (framing.repeated === null) throw new Error(`Framing "${framing.id}" has no wording for repeated play.`);
  return framing.repeated;
}

function checkActionOrder(game: Game, order: readonly ActionId[]): void {
  const isPermutation =
    order.length === game.actions.length &&
    new Set(order).size === order.length &&
    order.every((action) => game.actions.includes(action));
  if (!isPermutation) {
    throw new Error(
      `Action order ${JSON.stringify(order)} is not an ordering of game "${game.id}"'s actions ${game.actions.join(", ")}.`,
    );
  }
}
