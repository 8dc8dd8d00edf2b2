// Scripts written without spaces between words (Chinese, Japanese, Thai, Lao, Khmer, Burmese, Tibetan,
// Yi): a word cannot be told from its neighbours, so their letters are read one by one and a label,
// party or negation is found as a run of letters anywhere ("出し合うを選びます" names "出し合う"). Script
// extensions, not scripts, so the Japanese prolonged sound mark "ー" and the iteration mark "々" count.
const NO_SPACE_SCRIPTS =
  "\\p{scx=Han}\\p{scx=Hira}\\p{scx=Kana}\\p{scx=Bopo}\\p{scx=Thai}\\p{scx=Lao}\\p{scx=Khmr}\\p{scx=Mymr}\\p{scx=Tibt}\\p{scx=Yiii}";

/**
 * One word: a letter of a script without spaces with the marks that follow it (Thai "ม่"), or a run of
 * letters, combining marks and digits of any other script ("Zurückhalten", its decomposed form included).
 */
const WORD_IN_MIXED_RUN = new RegExp(
  `(?=[\\p{L}\\p{N}])[${NO_SPACE_SCRIPTS}]\\p{M}*|(?:(?![${NO_SPACE_SCRIPTS}])[\\p{L}\\p{M}\\p{N}])+`,
  "gu",
);
const RUN = /[\p{L}\p{M}\p{N}]+/gu;
const HAS_NO_SPACE_LETTER = new RegExp(`[${NO_SPACE_SCRIPTS}]`, "u");

/**
 * The words of a text with their offsets, in order. A run of letters is split only when it holds a
 * letter of a script without spaces: a text without any costs one plain regex pass.
 */
export function wordsIn(text: string): { word: string; start: number }[] {
  const words: { word: string; start: number }[] = [];
  const mixed = HAS_NO_SPACE_LETTER.test(text);
  for (const run of text.matchAll(RUN)) {
    if (!mixed || !HAS_NO_SPACE_LETTER.test(run[0])) {
      words.push({ word: run[0], start: run.index });
      continue;
    }
    for (const part of run[0].matchAll(WORD_IN_MIXED_RUN)) {
      words.push({ word: part[0], start: run.index + part.index });
    }
  }
  return words;
}

/**
 * The characters a reader takes for a minus sign glued to an amount: the hyphen-minus the renderer writes,
 * and the typographic minus (U+2212), small and full-width hyphen-minus, figure dash and en dash a framing's
 * units could put before `{n}` ("−{n} points" shows a payoff of 5 as −5, a loss).
 */
const MINUS_SIGNS = "\\-\u2212\uFE63\uFF0D\u2012\u2013";

/**
 * An amount as the payoff readers take it: ASCII digits, not glued to a digit, a decimal point or a letter
 * of a spaced script ("X5", "A1" are names), but read after a letter of a script without spaces, where
 * nothing else can separate it ("あなたは60ポイント"). Global: use it with matchAll, which copies it, and
 * take the value of a match with amountValue.
 */
export const AMOUNT = new RegExp(
  `(?<![\\p{N}.]|(?![${NO_SPACE_SCRIPTS}])[\\p{L}\\p{M}])[+${MINUS_SIGNS}]?\\d+(?:\\.\\d+)?`,
  "gu",
);

const ANY_MINUS_SIGN = new RegExp(`^[${MINUS_SIGNS}]`, "u");

/** The number an AMOUNT match states, whichever minus sign it is written with. */
export function amountValue(match: string): number {
  return Number(match.replace(ANY_MINUS_SIGN, "-"));
}
