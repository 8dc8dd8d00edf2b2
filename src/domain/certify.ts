import type { Framing } from "./framing.js";
import type { Game, GameVariant } from "./game.js";
import { actionLabelled, findLabelMentions, type LabelMap, labelMapProblem, tokenize } from "./labels.js";
import { type PromptRequest, type RepeatedContext, renderPrompt } from "./render.js";
import { type ActionId, PROMPT_STYLES } from "./types.js";

// Certification (SPEC §3): a framing may be used for a game only if the payoff matrix of BOTH players can
// be read back from the rendered prompt alone and equals the game's. The reader below knows nothing of the
// framing's templates; it reads the text the way a careful person would, under two conventions that the
// framing's wording must honour:
//   - a table row `| own label | other label | own amount | other amount |` (first row = headings);
//   - a bullet line `- ...` naming the player's own action first, then the other's, and stating the
//     player's own amount first, then the other's; exactly two labels and two numbers.
// So a template that swaps the amounts, hard-codes a wrong number or lets a stray digit in is refused.

export interface PayoffStatement {
  readonly source: "table" | "sentences";
  readonly own: ActionId;
  readonly other: ActionId;
  readonly ownPayoff: number;
  readonly otherPayoff: number;
}

const NUMBER = /(?<![\p{L}\p{N}.])[-+]?\d+(?:\.\d+)?/gu;
const TABLE_SEPARATOR = /^\|[\s:|-]*$/;

function numbersIn(text: string): number[] {
  return Array.from(text.matchAll(NUMBER), (match) => Number(match[0]));
}

/** Every payoff statement in the text, or the first line that looks like one but cannot be read. */
export function readPayoffStatements(
  text: string,
  labels: LabelMap,
): { statements: PayoffStatement[]; unreadable: string | null } {
  const statements: PayoffStatement[] = [];
  let previousWasTableLine = false;
  for (const rawLine of text.split("\n")) {
    const line = rawLine.trim();
    const isTableLine = line.startsWith("|");
    const isHeading = isTableLine && !previousWasTableLine;
    previousWasTableLine = isTableLine;
    if (isTableLine) {
      if (isHeading || TABLE_SEPARATOR.test(line)) continue;
      const cells = line.split("|").slice(1, -1);
      const own = actionLabelled(cells[0] ?? "", labels);
      const other = actionLabelled(cells[1] ?? "", labels);
      const ownNumbers = numbersIn(cells[2] ?? "");
      const otherNumbers = numbersIn(cells[3] ?? "");
      if (cells.length !== 4 || own === undefined || other === undefined) {
        return { statements, unreadable: `table row "${line}" does not start with two action labels` };
      }
      if (ownNumbers.length !== 1 || otherNumbers.length !== 1) {
        return { statements, unreadable: `table row "${line}" does not state exactly one amount per player` };
      }
      statements.push({
        source: "table",
        own,
        other,
        ownPayoff: ownNumbers[0] as number,
        otherPayoff: otherNumbers[0] as number,
      });
    } else if (line.startsWith("- ")) {
      const sentence = line.slice(2);
      const mentions = findLabelMentions(tokenize(sentence), labels);
      const numbers = numbersIn(sentence);
      if (mentions.length !== 2 || numbers.length !== 2) {
        return {
          statements,
          unreadable: `payoff sentence "${sentence}" names ${mentions.length} action label(s) and ${numbers.length} number(s) instead of 2 and 2`,
        };
      }
      statements.push({
        source: "sentences",
        own: (mentions[0] as { action: ActionId }).action,
        other: (mentions[1] as { action: ActionId }).action,
        ownPayoff: numbers[0] as number,
        otherPayoff: numbers[1] as number,
      });
    }
  }
  return { statements, unreadable: null };
}

/** Why the statements differ from the variant's payoffs, or null when each presentation states all exactly once. */
export function payoffMismatch(
  statements: readonly PayoffStatement[],
  actions: readonly ActionId[],
  variant: GameVariant,
): string | null {
  if (statements.length === 0) return "the prompt states no payoffs";
  const payoff = (own: ActionId, other: ActionId) => variant.payoffs[own]?.[other] as number;
  for (const source of new Set(statements.map((statement) => statement.source))) {
    const where = source === "table" ? "in the payoff table" : "in the payoff sentences";
    const stated = statements.filter((statement) => statement.source === source);
    for (const own of actions) {
      for (const other of actions) {
        const found = stated.filter((statement) => statement.own === own && statement.other === other);
        const profile = `profile (${own}, ${other})`;
        if (found.length !== 1) return `${where}, ${profile} is stated ${found.length} times instead of once`;
        const { ownPayoff, otherPayoff } = found[0] as PayoffStatement;
        if (ownPayoff !== payoff(own, other)) {
          return `${where}, ${profile} states ${ownPayoff} for you but the game says ${payoff(own, other)}`;
        }
        if (otherPayoff !== payoff(other, own)) {
          return `${where}, ${profile} states ${otherPayoff} for the other player but the game says ${payoff(other, own)}`;
        }
      }
    }
  }
  return null;
}

/** Renders one prompt and throws unless its text states exactly the variant's payoffs under a bijective label map. */
export function certifyPrompt(request: PromptRequest): void {
  const { game, variant, framing } = request;
  const fail = (why: string) =>
    new Error(`framing "${framing.id}" for game "${game.id}" (variant ${variant.id}): ${why}.`);
  const labelProblem = labelMapProblem(framing.labels, game.actions);
  if (labelProblem !== null) throw fail(labelProblem);
  const text = renderPrompt(request);
  const { statements, unreadable } = readPayoffStatements(text, framing.labels);
  if (unreadable !== null) throw fail(unreadable);
  const mismatch = payoffMismatch(statements, game.actions, variant);
  if (mismatch !== null) throw fail(mismatch);
}

/** Certifies a framing for one game variant in every action order, style and horizon; returns the prompts checked. */
export function certifyFraming(game: Game, variant: GameVariant, framing: Framing): number {
  const horizons: (RepeatedContext | undefined)[] =
    game.rounds > 1
      ? (["revealed", "hidden"] as const).map((horizon) => ({
          round: 1,
          horizon,
          historyMode: "none",
          history: [],
        }))
      : [undefined];
  let checked = 0;
  for (const actionOrder of permutations(game.actions)) {
    for (const style of PROMPT_STYLES) {
      for (const repeated of horizons) {
        certifyPrompt({ game, variant, framing, actionOrder, style, ...(repeated ? { repeated } : {}) });
        checked++;
      }
    }
  }
  return checked;
}

/** All orderings of the items (k! of them; catalog games have at most a handful of actions). */
export function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [items.slice()];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}
