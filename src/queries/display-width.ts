// How many terminal columns a cell of a text table takes. A name is free text (a player label, an imported
// framing): counted in UTF-16 code units, "Müller" written with a combining diaeresis (7 units, 6
// columns) pushed every column after it one place left of the others, and a CJK name (2 columns per
// character, 1 unit) or an emoji (2 columns, 2 units) pushed them the other way.

const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });

/** Wide (two-column) characters of East Asian scripts, by code point range (Unicode's East_Asian_Width W and F). */
const WIDE: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe30, 0xfe4f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x20000, 0x3fffd],
];

/** The columns one grapheme takes: 2 for a wide character or an emoji, 0 for a lone invisible format mark, else 1. */
function graphemeWidth(grapheme: string): number {
  const first = grapheme.codePointAt(0) ?? 0;
  if (/\p{Extended_Pictographic}/u.test(grapheme) && /\uFE0F|\p{Emoji_Presentation}/u.test(grapheme))
    return 2;
  if (WIDE.some(([lo, hi]) => first >= lo && first <= hi)) return 2;
  if (/^\p{Cf}+$/u.test(grapheme)) return 0;
  return 1;
}

/** The terminal columns `text` takes (after `printable`, which leaves no control character in it). */
export function displayWidth(text: string): number {
  // ASCII, every number and most names: one column a character.
  if (/^[\x20-\x7e]*$/.test(text)) return text.length;
  let width = 0;
  for (const { segment } of graphemes.segment(text)) width += graphemeWidth(segment);
  return width;
}

/** `text` padded with spaces to `width` columns. */
export function padToWidth(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - displayWidth(text)));
}
