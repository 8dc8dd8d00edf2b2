import {
  actionLabelled,
  findLabelMentions,
  joinAlternatives,
  type LabelMap,
  type Token,
  tokenize,
} from "./labels.js";
import type { ActionId } from "./types.js";

// Reads an agent's free-text reply as one of the framing's labels (SPEC §3). Rules, in order:
//  1. The whole reply is a label (case, surrounding markdown, quotes and punctuation ignored): that label.
//  2. A last line that is exactly a label decides alone — the prompts ask for the final choice alone on
//     the last line, and chain-of-thought replies weigh every option before they conclude. Failing that,
//     a final-answer line — the last line starting "Final answer:", "Answer:", "Choice:", "Decision:"
//     (optionally "My"/"Final", or "... is") — decides alone, whatever the reasoning around it mentions.
//  3. Otherwise the whole reply must mention exactly one label, as whole words ("cooperatively" is not
//     "cooperate"), and never negated ("not X", "won't X", "refuse to X", ...).
// A negated label makes the reply invalid rather than meaning "the other one": with three actions it
// would not say which, and an agent that is asked again answers plainly. Linear in the reply's length.

export type ParsedReply =
  | { readonly ok: true; readonly action: ActionId; readonly label: string }
  | { readonly ok: false; readonly reason: string };

const FINAL_ANSWER_LINE =
  /^[\s*_#>`"'-]*(?:my\s+)?(?:final\s+)?(?:answer|choice|decision)[\s*_`]*(?::|\bis\b|-|–|—)(.*)$/i;

/** Words that negate a label when they occur within the three words before it ("t" is the tail of "n't"). */
const NEGATIONS = new Set([
  "not",
  "never",
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
]);
const NEGATION_WINDOW = 3;

export function parseReply(reply: string, labels: LabelMap): ParsedReply {
  const valid = `answer with exactly one of ${joinAlternatives(Object.values(labels).map((label) => `"${label}"`))}`;
  if (reply.trim() === "") return { ok: false, reason: `Your reply is empty; ${valid}.` };
  const exact = actionLabelled(reply, labels);
  if (exact !== undefined) return accepted(exact, labels);
  const lines = reply.split("\n").filter((line) => line.trim() !== "");
  const lastLineLabel = actionLabelled(lines.at(-1) ?? "", labels);
  if (lastLineLabel !== undefined) return accepted(lastLineLabel, labels);
  const finalAnswer = lastFinalAnswer(lines);
  if (finalAnswer !== undefined) return single(finalAnswer, labels, valid, "Your final answer line");
  return single(reply, labels, valid, "Your reply");
}

function lastFinalAnswer(lines: readonly string[]): string | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    const match = FINAL_ANSWER_LINE.exec(lines[i] as string);
    if (match) return match[1] as string;
  }
  return undefined;
}

/** The one label the text mentions without negation, or why there is not exactly one. */
function single(text: string, labels: LabelMap, valid: string, subject: string): ParsedReply {
  const tokens = tokenize(text);
  const mentions = findLabelMentions(tokens, labels);
  const negated = mentions.find((mention) => isNegated(tokens, mention.tokenIndex));
  if (negated !== undefined) {
    return {
      ok: false,
      reason: `${subject} negates "${labels[negated.action]}", which does not name a choice; ${valid}.`,
    };
  }
  const named = [...new Set(mentions.map((mention) => mention.action))];
  if (named.length === 0) return { ok: false, reason: `${subject} names none of the choices; ${valid}.` };
  if (named.length > 1) {
    const both = joinAlternatives(
      named.map((action) => `"${labels[action]}"`),
      "and",
    );
    return { ok: false, reason: `${subject} names more than one choice (${both}); ${valid}.` };
  }
  return accepted(named[0] as ActionId, labels);
}

function isNegated(tokens: readonly Token[], index: number): boolean {
  for (let i = Math.max(0, index - NEGATION_WINDOW); i < index; i++) {
    if (NEGATIONS.has((tokens[i] as Token).word)) return true;
  }
  return false;
}

function accepted(action: ActionId, labels: LabelMap): ParsedReply {
  return { ok: true, action, label: labels[action] as string };
}
