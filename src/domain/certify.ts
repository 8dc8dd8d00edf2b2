import { UsageError } from "../usage-error.js";
import type { Framing } from "./framing.js";
import { type Game, type GameVariant, otherPayoffOf } from "./game.js";
import { actionLabelled, findLabelMentions, type LabelMap, labelMapProblem, tokenize } from "./labels.js";
import { numberIn, scaleWordsIn, signWordIn } from "./number-words.js";
import { readPayoffsByMeaning } from "./payoff-meaning.js";
import { type PromptRequest, type RepeatedContext, renderPrompt } from "./render.js";
import { storyLabelMentions } from "./story-label-mentions.js";
import { type ActionId, PROMPT_STYLES } from "./types.js";
import { AMOUNT, amountValue } from "./writing-systems.js";

// Certification (SPEC §3): a framing may be used for a game only if the payoff matrix of BOTH
// players can be read back from the rendered prompt alone, by meaning, and equals the game's: the reader in
// payoff-meaning.ts attributes each amount to a party by the words of the sentence and the table headings.
//
// The positional reader below is what the reference agents use to read a prompt (they know no parties); it
// reads the text under two conventions that every shipped framing also honours:
//   - a table row `| own label | other label | own amount | other amount |` (first row = headings);
//   - a bullet line `- ...` naming the player's own action first, then the other's, and stating the
//     player's own amount first, then the other's; exactly two labels and two numbers.

export interface PayoffStatement {
  readonly source: "table" | "sentences";
  readonly own: ActionId;
  readonly other: ActionId;
  readonly ownPayoff: number;
  readonly otherPayoff: number;
}

const TABLE_SEPARATOR = /^\|[\s:|-]*$/;

function numbersIn(text: string): number[] {
  return Array.from(text.matchAll(AMOUNT), (match) => amountValue(match[0]));
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

/**
 * Why the statements differ from the variant's payoffs, or null when each presentation states all exactly
 * once. Names the profile and both values, so a reviewer can check the claim against the game file.
 */
export function payoffMismatch(
  statements: readonly PayoffStatement[],
  actions: readonly ActionId[],
  variant: GameVariant,
): string | null {
  if (statements.length === 0) return "the prompt states no payoffs";
  const payoff = (own: ActionId, other: ActionId) => variant.payoffs[own]?.[other] as number;
  const otherPayoff = (own: ActionId, other: ActionId) => otherPayoffOf(variant, own, other);
  for (const source of new Set(statements.map((statement) => statement.source))) {
    const where = source === "table" ? "in the payoff table" : "in the payoff sentences";
    const stated = statements.filter((statement) => statement.source === source);
    for (const own of actions) {
      for (const other of actions) {
        const found = stated.filter((statement) => statement.own === own && statement.other === other);
        const profile = `profile (agent ${own}, other ${other})`;
        if (found.length !== 1) return `${where}, ${profile} is stated ${found.length} times instead of once`;
        const statement = found[0] as PayoffStatement;
        if (statement.ownPayoff !== payoff(own, other)) {
          return `${where}, ${profile} gives the agent ${statement.ownPayoff} but the game pays the agent ${payoff(own, other)}`;
        }
        if (statement.otherPayoff !== otherPayoff(own, other)) {
          return `${where}, ${profile} gives the other party ${statement.otherPayoff} but the game pays the other party ${otherPayoff(own, other)}`;
        }
      }
    }
  }
  return null;
}

/**
 * The framing's own texts that must state no amount, number word or label: story, payoff intro, question,
 * the table's headings and the wording of repeated play. Amounts and labels reach the agent only through
 * placeholders, so a template is checked with its placeholders left out: a heading "profit x 10" would
 * misstate every amount under it, and "This is round {round} of 16." would tell the agent the horizon a
 * study hides.
 */
function plainTexts(framing: Framing): { where: string; text: string }[] {
  const table = framing.payoffs.table;
  const repeated = framing.repeated;
  const texts = [
    ...framing.story.map((text, i) => ({ where: `story paragraph ${i + 1}`, text })),
    { where: "payoff intro", text: framing.payoffs.intro },
    { where: "question", text: framing.question },
    ...(table === null
      ? []
      : [
          { where: "table heading own_action", text: table.ownAction },
          { where: "table heading other_action", text: table.otherAction },
          { where: "table heading own_payoff", text: table.ownPayoff },
          { where: "table heading other_payoff", text: table.otherPayoff },
        ]),
    ...(repeated === null
      ? []
      : [
          { where: "repeated horizon_revealed", text: repeated.horizonRevealed },
          { where: "repeated horizon_hidden", text: repeated.horizonHidden },
          { where: "repeated round_heading", text: repeated.roundHeading },
          { where: "repeated history_full_intro", text: repeated.historyFullIntro },
          { where: "repeated history_last_intro", text: repeated.historyLastIntro },
          { where: "repeated outcome", text: repeated.outcome },
        ]),
  ];
  return texts.map(({ where, text }) => ({ where, text: withoutPlaceholders(text) }));
}

/** A template's fixed words: each `{name}` becomes a space, so what it is filled with is not read here. */
function withoutPlaceholders(template: string): string {
  return template.replace(/\{\w+\}/g, " ");
}

/** Why the framing's plain texts or labels could mislead, or null. */
function wordingProblem(framing: Framing): string | null {
  for (const { where, text } of plainTexts(framing)) {
    const number = numberIn(text);
    if (number !== null) {
      return `its ${where} states "${number}": story, intro, question, table headings and the wording of repeated play may contain no amounts or number words`;
    }
    const mention = storyLabelMentions(text, framing.labels)[0];
    if (mention !== undefined) {
      return `its ${where} names the label "${framing.labels[mention.action]}": the story must read the same under every label set`;
    }
  }
  for (const [form, unit] of Object.entries(framing.units)) {
    const sign = signWordIn(withoutPlaceholders(unit));
    if (sign !== null) {
      return `its units (${form}) say "${sign}": an amount's sign is the game's, written by {n}, so a unit may not add one`;
    }
  }
  const oneScale = scaleWordsIn(withoutPlaceholders(framing.units.one));
  const otherScale = scaleWordsIn(withoutPlaceholders(framing.units.other));
  if (oneScale.join(" ") !== otherScale.join(" ")) {
    const stated = (words: string[]) => (words.length === 0 ? "no scale" : `"${words.join(" ")}"`);
    return `its units state ${stated(oneScale)} for an amount of 1 and ${stated(otherScale)} for every other amount: both forms must state the same scale, or the amounts they write are not the game's`;
  }
  const partyWords = [...framing.parties.self, ...framing.parties.other].map((phrase) => ({
    phrase,
    words: tokenize(phrase),
  }));
  for (const label of Object.values(framing.labels)) {
    const tokens = tokenize(label);
    const party = partyWords.find(({ words }) =>
      tokens.some((_, i) => words.every((word, k) => tokens[i + k]?.word === word.word)),
    );
    if (party !== undefined) return `its label "${label}" contains the party phrase "${party.phrase}"`;
  }
  for (const negation of framing.negations ?? []) {
    const named = findLabelMentions(tokenize(negation), framing.labels)[0];
    if (named !== undefined) {
      return `its negation "${negation}" names the label "${framing.labels[named.action]}": a reply naming that label would read as its own negation`;
    }
  }
  return null;
}

/**
 * Renders one prompt and throws unless the text, read by meaning (who gets what under which profile),
 * states exactly the variant's payoffs under a bijective label map, and its story states no numbers.
 */
export function certifyPrompt(request: PromptRequest, wordingChecked = false): void {
  const { game, variant, framing } = request;
  const fail = (why: string) =>
    new CertificationError(`framing "${framing.id}" for game "${game.id}" (variant ${variant.id}): ${why}.`);
  const labelProblem = labelMapProblem(framing.labels, game.actions);
  if (labelProblem !== null) throw fail(labelProblem);
  const wording = wordingChecked ? null : wordingProblem(framing);
  if (wording !== null) throw fail(wording);
  const text = renderPrompt(request);
  const { statements, unreadable } = readPayoffsByMeaning(text, framing.labels, framing.parties);
  if (unreadable !== null) throw fail(unreadable);
  const mismatch = payoffMismatch(statements, game.actions, variant);
  if (mismatch !== null) throw fail(mismatch);
}

/** A catalog defect: a framing that would misstate a game. Carries one sentence for the operator. */
export class CertificationError extends UsageError {
  override readonly name: string = "CertificationError";
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
        // The framing's own texts do not change with order, style or horizon: checked on the first prompt.
        certifyPrompt(
          { game, variant, framing, actionOrder, style, ...(repeated ? { repeated } : {}) },
          checked > 0,
        );
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
