import type { ActionId } from "./types.js";
import { wordsIn } from "./writing-systems.js";

/** A framing's surface label for every canonical action: `{ cooperate: "Cooperate", defect: "Defect" }`. */
export type LabelMap = Readonly<Record<ActionId, string>>;

// Labels are compared as sequences of lower-cased word tokens, so matching ignores case, punctuation and
// markdown, and "cooperatively" never counts as "cooperate". A word is compared in Unicode's composed form
// (NFC): "Zurückhalten" typed with a combining umlaut is the same word. In scripts written without spaces
// every letter is a token (writing-systems.ts), so there a label is found inside a longer run of letters.
// One linear regex pass, no backtracking.

export interface Token {
  /** The word lower-cased, in composed form. */
  readonly word: string;
  /** Offset of the token in the scanned text. */
  readonly start: number;
  /** Offset just after the token in the scanned text (the word's own length may differ once composed). */
  readonly end: number;
}

export function tokenize(text: string): Token[] {
  return wordsIn(text).map(({ word, start }) => ({
    word: composed(word).toLowerCase(),
    start,
    end: start + word.length,
  }));
}

/** The text in composed form (NFC); ASCII text, the common case, is already. */
export function composed(text: string): string {
  return ASCII.test(text) ? text : text.normalize("NFC");
}

const ASCII = /^[\p{ASCII}]*$/u;

export function wordsOf(text: string): string[] {
  return tokenize(text).map((token) => token.word);
}

export interface LabelMention {
  readonly action: ActionId;
  /** Index of the mention's first token. */
  readonly tokenIndex: number;
}

/** Every whole-word occurrence of a label in the tokens, in text order. */
export function findLabelMentions(tokens: readonly Token[], labels: LabelMap): LabelMention[] {
  const labelWords = Object.entries(labels).map(([action, label]) => ({ action, words: wordsOf(label) }));
  const mentions: LabelMention[] = [];
  for (let i = 0; i < tokens.length; i++) {
    for (const { action, words } of labelWords) {
      if (words.length > 0 && words.every((word, k) => tokens[i + k]?.word === word)) {
        mentions.push({ action, tokenIndex: i });
      }
    }
  }
  return mentions;
}

/** Each label map's labels as joined words, computed once: certification reads thousands of cells. */
const labelKeys = new WeakMap<LabelMap, [ActionId, string][]>();

/** The action whose label is exactly this text (ignoring case, punctuation and markdown), if any. */
export function actionLabelled(text: string, labels: LabelMap): ActionId | undefined {
  let keys = labelKeys.get(labels);
  if (keys === undefined) {
    keys = Object.keys(labels).map((action) => [action, wordsOf(labels[action] as string).join(" ")]);
    labelKeys.set(labels, keys);
  }
  const key = wordsOf(text).join(" ");
  return keys.find(([, words]) => words === key)?.[0];
}

function containsWords(haystack: readonly string[], needle: readonly string[]): boolean {
  for (let i = 0; i + needle.length <= haystack.length; i++) {
    if (needle.every((word, k) => haystack[i + k] === word)) return true;
  }
  return false;
}

/**
 * Why the label map cannot be read back unambiguously from text, or null when it can: every action has
 * exactly one label, labels are distinct, none contains another as whole words (the parser could not
 * tell them apart) and none contains a digit (the payoff reader would take it for a payoff).
 */
export function labelMapProblem(labels: LabelMap, actions: readonly ActionId[]): string | null {
  const missing = actions.filter((action) => labels[action] === undefined);
  const extra = Object.keys(labels).filter((action) => !actions.includes(action));
  if (missing.length > 0 || extra.length > 0) {
    return `its labels cover ${JSON.stringify(Object.keys(labels))} but the game's actions are ${JSON.stringify(actions)}`;
  }
  for (const action of actions) {
    const label = labels[action] as string;
    if (wordsOf(label).length === 0) return `action "${action}" has the empty label "${label}"`;
    if (/\d/.test(label)) return `action "${action}" has the label "${label}", which contains a digit`;
  }
  for (const a of actions) {
    for (const b of actions) {
      if (a >= b) continue;
      const wordsA = wordsOf(labels[a] as string);
      const wordsB = wordsOf(labels[b] as string);
      if (wordsA.join(" ") === wordsB.join(" ")) {
        return `actions "${a}" and "${b}" share the label "${labels[a]}"`;
      }
      const [inner, outer] = wordsA.length < wordsB.length ? [a, b] : [b, a];
      if (containsWords(wordsOf(labels[outer] as string), wordsOf(labels[inner] as string))) {
        return `the label "${labels[outer]}" of "${outer}" contains the label "${labels[inner]}" of "${inner}"`;
      }
    }
  }
  return null;
}

/** "A", "A or B", "A, B or C": items as a person would list them. */
export function joinAlternatives(items: readonly string[], conjunction: "or" | "and" = "or"): string {
  return items.length <= 1
    ? items.join("")
    : `${items.slice(0, -1).join(", ")} ${conjunction} ${items.at(-1)}`;
}
