import {
  actionLabelled,
  composed,
  findLabelMentions,
  joinAlternatives,
  type LabelMap,
  type LabelMention,
  type Token,
  tokenize,
  wordsOf,
} from "./labels.js";
import { type NegationMatcher, negationMatcher } from "./negation-words.js";
import type { ActionId } from "./types.js";

// Reads an agent's free-text reply as one of the framing's labels (SPEC §3). It refuses rather than
// guesses: a reply is valid only when exactly one label is chosen, by one of these, in order:
//  1. The whole reply is a label (case, surrounding markdown, quotes and punctuation ignored).
//  2. An answer marker: a line `Answer: X`, `Final answer: X`, `Final: X`, `Final decision: X`,
//     `Choice: X`, `Decision: X`, `My answer is X`, `Move: X`; a line `[move] (optional explanation) X`;
//     `<action>X</action>` (or answer/choice/move tags); a JSON `{"choice": "X"}` (or action/move/answer);
//     a bracketed label `[X]` (TextArena's format). The LAST marker decides alone, whatever the
//     reasoning around it mentions, and it must itself name exactly one label, un-negated.
//  3. A last line that is exactly a label decides — the prompts ask for the final choice alone on the
//     last line — unless the line above is a label too (an echo of the options is no choice).
//  4. Otherwise the whole reply must name exactly one label, and no sentence naming it may negate or
//     reject it ("not X", "X is dominated, so I take the other one") in English or in any language of
//     negation-words.ts ("nicht X", "「X」とは書きません", "לא X"), or with the framing's own negations.
// Reply and labels are compared in composed Unicode form (NFC); in scripts written without spaces a label
// is found inside a run of letters ("出し合うを選びます" names "出し合う"), as are negations.
// Never inferred: the last item of an enumeration; the other action from a negation (with three actions
// it would not say which); a negation in an earlier sentence; a single-letter label from a letter inside a
// word or formula (`x` in "let x be", `X` in "P(X)", "X-ray"): in running text a one-letter label counts
// only written as the upper-case letter, standing alone. Linear in the reply's length.

export type ParsedReply =
  | { readonly ok: true; readonly action: ActionId; readonly label: string }
  | { readonly ok: false; readonly reason: string };

/** `Final answer:`, `**Answer**:`, `My final choice is`, `Final:`, `Move:` — a colon or "is", never a hyphen. */
const ANSWER_LINE =
  /^[\s*_#>`"']*(?:(?:my\s+)?(?:final\s+)?(?:answer|choice|decision|move|final)[\s*_`]*:|(?:my|the)\s+(?:final\s+)?(?:answer|choice|decision|move)[\s*_`]*\s+is\b)(.*)$/i;
/** The counterfactual study's move messages, `[move] (optional explanation) X`: the explanation is set aside. */
const MOVE_LINE = /\[move\]\s*(.*)$/i;
const PARENTHETICAL = /\([^()]*\)/g;
const XML_TAG = /<(action|answer|choice|move)>([^<]{0,200})<\/\1>/gi;
const JSON_CHOICE = /"(?:choice|action|move|answer)"\s*:\s*"([^"\n]{0,200})"/gi;
const BRACKETED = /\[([^[\]\n]{1,80})\]/g;

/** Words that negate or reject a label named in the same sentence ("t" is the tail of "n't"). */
const REJECTIONS = new Set([
  "not",
  "never",
  "no",
  "t",
  "dont",
  "wont",
  "cant",
  "cannot",
  "non",
  "neither",
  "nor",
  "refuse",
  "refuses",
  "refused",
  "refusing",
  "avoid",
  "avoiding",
  "reject",
  "rejecting",
  "dominated",
  "instead",
  "rather",
  "except",
  "unlike",
  "other",
]);
/** "the other player" names a party, not an alternative: `other` rejects only when it means another action. */
const PARTIES = new Set([
  "player",
  "players",
  "party",
  "side",
  "person",
  "firm",
  "friend",
  "agent",
  "participant",
]);
/** Sentence ends of Latin, CJK (full-width), Arabic and Devanagari text. */
const SENTENCE_END = /[.!?;:\n。．！？；：؟؛।]/;

interface Marker {
  readonly position: number;
  /** The chosen text the marker carries; `enumeration` = the marker itself lists several labels. */
  readonly text: string;
  readonly enumeration?: boolean;
}

/**
 * `negations`: the framing's own negation words and phrases (its file's `negations`), read beside the
 * built-in ones of every language.
 */
export function parseReply(
  rawReply: string,
  labels: LabelMap,
  negations: readonly string[] = [],
): ParsedReply {
  const reply = composed(rawReply);
  const negating = negationMatcher(negations);
  const valid = `answer with exactly one of ${joinAlternatives(Object.values(labels).map((label) => `"${label}"`))}`;
  if (reply.trim() === "") return { ok: false, reason: `Your reply is empty; ${valid}.` };
  const exact = actionLabelled(reply, labels);
  if (exact !== undefined) return accepted(exact, labels);
  const lines = reply.split("\n").filter((line) => line.trim() !== "");
  const last = lines.at(-1) ?? "";
  const lastLabel = isListItem(last) ? undefined : actionLabelled(last, labels);
  if (lastLabel !== undefined) {
    const before = lines.at(-2);
    const beforeLabel = before === undefined ? undefined : actionLabelled(before, labels);
    if (beforeLabel !== undefined && beforeLabel !== lastLabel) {
      return { ok: false, reason: `Your reply ends with a list of choices, not one choice; ${valid}.` };
    }
    return accepted(lastLabel, labels);
  }
  const marker = lastMarker(reply, labels);
  if (marker !== undefined) {
    if (marker.enumeration) {
      return { ok: false, reason: `Your final answer lists more than one choice; ${valid}.` };
    }
    const whole = actionLabelled(marker.text, labels) ?? actionLabelled(firstClause(marker.text), labels);
    if (whole !== undefined) return accepted(whole, labels);
    return single(marker.text, labels, negating, valid, "Your final answer");
  }
  return single(reply, labels, negating, valid, "Your reply");
}

/** "Scissors. My opponent…", "Hare - safer…", "Stag (to signal…)": the answer slot up to its first break. */
function firstClause(text: string): string {
  return text.split(/[.!?;,](?:\s|$)|\s[-–—]\s|\(/, 1)[0] as string;
}

function isListItem(line: string): boolean {
  return /^\s*(?:[-*•+]|\d+[.)]|[a-z][.)])\s/i.test(line);
}

/** The last answer marker in the reply, if any. */
function lastMarker(reply: string, labels: LabelMap): Marker | undefined {
  const markers: Marker[] = [];
  let offset = 0;
  for (const line of reply.split("\n")) {
    const move = MOVE_LINE.exec(line);
    if (move) {
      markers.push({ position: offset, text: (move[1] as string).replace(PARENTHETICAL, " ") });
    } else {
      const answer = ANSWER_LINE.exec(line);
      if (answer) markers.push({ position: offset, text: answer[1] as string });
    }
    const bracketed = Array.from(line.matchAll(BRACKETED))
      .map((match) => ({ match, action: actionLabelled(match[1] as string, labels) }))
      .filter(({ action }) => action !== undefined);
    if (bracketed.length > 0) {
      const distinct = new Set(bracketed.map(({ action }) => action));
      const lastBracket = bracketed.at(-1) as (typeof bracketed)[number];
      markers.push({
        position: offset + (lastBracket.match.index as number),
        text: lastBracket.match[1] as string,
        enumeration: distinct.size > 1,
      });
    }
    offset += line.length + 1;
  }
  for (const match of reply.matchAll(XML_TAG))
    markers.push({ position: match.index, text: match[2] as string });
  for (const match of reply.matchAll(JSON_CHOICE))
    markers.push({ position: match.index, text: match[1] as string });
  return markers.reduce<Marker | undefined>(
    (latest, marker) => (latest === undefined || marker.position >= latest.position ? marker : latest),
    undefined,
  );
}

/** The one label the text names without rejecting it, or why there is not exactly one. */
function single(
  text: string,
  labels: LabelMap,
  negating: NegationMatcher,
  valid: string,
  subject: string,
): ParsedReply {
  const tokens = tokenize(text);
  const mentions = findLabelMentions(tokens, labels).filter((mention) =>
    standsAlone(text, tokens, mention, labels),
  );
  const named = [...new Set(mentions.map((mention) => mention.action))];
  if (named.length === 0) return { ok: false, reason: `${subject} names none of the choices; ${valid}.` };
  if (named.length > 1) {
    const both = joinAlternatives(
      named.map((action) => `"${labels[action]}"`),
      "and",
    );
    return { ok: false, reason: `${subject} names more than one choice (${both}); ${valid}.` };
  }
  const rejected = mentions.find((mention) =>
    isRejected(text, tokens, mention, wordsOf(labels[mention.action] as string).length, negating),
  );
  if (rejected !== undefined) {
    return {
      ok: false,
      reason: `${subject} negates or rejects "${labels[rejected.action]}", which does not name a choice; ${valid}.`,
    };
  }
  return accepted(named[0] as ActionId, labels);
}

/**
 * A one-letter label counts in running text only as the upper-case letter standing alone: not "x" in
 * "let x be", not "X" in "P(X)=" or "X-ray" or "X's". Longer labels are whole-word matches already.
 */
function standsAlone(
  text: string,
  tokens: readonly Token[],
  mention: LabelMention,
  labels: LabelMap,
): boolean {
  const label = composed(labels[mention.action] as string).trim();
  if (label.length !== 1) return true;
  const token = tokens[mention.tokenIndex] as Token;
  if (text[token.start] !== label.toUpperCase()) return false;
  const before = text[token.start - 1] ?? " ";
  const after = text[token.start + 1] ?? " ";
  const formula = /[=+\-*/^()<>|\d_'’[\]{}]/;
  return !formula.test(before) && !formula.test(after);
}

/**
 * Whether a rejecting word precedes the mention, or follows it, within the same sentence. The label's own
 * words are not searched: a label may itself contain one ("出さない", "Do not share").
 */
function isRejected(
  text: string,
  tokens: readonly Token[],
  mention: LabelMention,
  labelLength: number,
  negating: NegationMatcher,
): boolean {
  const first = mention.tokenIndex;
  const after = first + labelLength;
  const gapEndsSentence = (i: number) =>
    SENTENCE_END.test(text.slice((tokens[i] as Token).end, (tokens[i + 1] as Token).start));
  for (let i = first - 1; i >= 0 && !gapEndsSentence(i); i--) {
    const negation = negating.lengthAt(tokens, i);
    if (negation > 0 && i + negation <= first) return true;
    if (rejectsByWord(text, tokens, i)) return true;
  }
  for (let i = after; i < tokens.length && !gapEndsSentence(i - 1); i++) {
    if (negating.lengthAt(tokens, i) > 0 || rejectsByWord(text, tokens, i)) return true;
  }
  return false;
}

/** The English rejections, which need their neighbours ("the other player", "no doubt"), and French "n'". */
function rejectsByWord(text: string, tokens: readonly Token[], i: number): boolean {
  const token = tokens[i] as Token;
  const word = token.word;
  // French "n'" ("je n'écris pas"): the bare letter is an English variable ("with n rounds").
  if (word === "n") return /['’]/.test(text[token.end] ?? "");
  if (!REJECTIONS.has(word)) return false;
  if (word === "other") return !PARTIES.has(tokens[i + 1]?.word ?? "");
  if (word === "no") return !["doubt", "question", "matter"].includes(tokens[i + 1]?.word ?? "");
  return true;
}

function accepted(action: ActionId, labels: LabelMap): ParsedReply {
  return { ok: true, action, label: labels[action] as string };
}
