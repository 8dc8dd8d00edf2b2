import { findLabelMentions, type LabelMap, type LabelMention, tokenize } from "./labels.js";

// A framing's own texts (story, payoff intro, question) must read the same under every label set, so
// certification refuses one that names a label. Labels are matched as lower-cased words, which is right for
// "Most firms undercut." against the label "Undercut", but a one-letter label is also a word of English:
// the textbook label of an action id `a` is "A", and "a button", "A firm runs…" name no label.

/**
 * The labels a framing's own text names. A one-letter label counts only where it is written as the label
 * is — in the same case, so "a" is never the label "A" — and not where it stands as an article or pronoun:
 * a capital opening a sentence and followed by a lower-case word that can open a noun phrase ("A firm…",
 * "A large lake…") is the article. "Choose A.", "option A", "A or B" and "A is safer" name the label.
 */
export function storyLabelMentions(text: string, labels: LabelMap): LabelMention[] {
  const tokens = tokenize(text);
  return findLabelMentions(tokens, labels).filter((mention) => {
    const letter = oneLetterOf(labels[mention.action] as string);
    if (letter === null) return true;
    const token = tokens[mention.tokenIndex];
    if (token === undefined || text.slice(token.start, token.start + letter.length) !== letter) return false;
    return !opensSentenceBeforeLowerCaseWord(text, mention.tokenIndex, tokens);
  });
}

/** The label's one letter as written ("A" of "A" or "**A**"), or null for a label of more than one letter. */
function oneLetterOf(label: string): string | null {
  const words = tokenize(label);
  if (words.length !== 1) return null;
  const [word] = words;
  return word !== undefined && [...word.word].length === 1 ? label.slice(word.start, word.end) : null;
}

/**
 * Words no noun phrase starts with: after a sentence-opening capital letter they make it the subject of
 * the sentence (the label: "A is safer", "A or B"), not an article.
 */
const NOT_AFTER_AN_ARTICLE = new Set(
  "is are was were will would can could may might must should shall does did has had and or nor but than pays gives earns wins loses means".split(
    " ",
  ),
);

/**
 * Whether the token opens a sentence (text start, or after . ! ? :) and is followed by a lower-case word
 * that can follow an article: then it reads as the article (or the pronoun), not as a label.
 */
function opensSentenceBeforeLowerCaseWord(
  text: string,
  index: number,
  tokens: ReturnType<typeof tokenize>,
): boolean {
  const token = tokens[index];
  const next = tokens[index + 1];
  if (token === undefined || next === undefined) return false;
  const before = text.slice(0, token.start).replace(/["'“‘(\s]+$/u, "");
  const opens = before === "" || /[.!?:]["'”’)\]]*$/u.test(before);
  const between = text.slice(token.end, next.start);
  return (
    opens &&
    /^\s+$/u.test(between) &&
    /^\p{Ll}/u.test(text.slice(next.start)) &&
    !NOT_AFTER_AN_ARTICLE.has(next.word)
  );
}
