import { tokenize } from "./labels.js";

// A framing's story, payoff intro and question must state no amount (SPEC §3): a number there could be
// read as a payoff the matrix does not pay. Caught: digits of every script (ASCII, full-width "１０",
// Arabic-Indic "٣", Devanagari, Thai…, and other numeric characters such as "½" or "²"), the number words
// below, and Chinese or Japanese numerals before another numeral or a counter ("十万", "一人", "三つ",
// "千円"; a numeral inside a word, "一緒" or "唯一", is no amount). Left out: words that are also an
// article or a common word of another meaning ("ein", "un", "uno", "een", Italian "due" and "sei", French
// "neuf" ("new"), Spanish "once"; Hebrew "אחד" and Arabic "واحد", as in "each one of you").
const words = (list: string): string[] => list.split(" ");

export const NUMBER_WORDS_BY_LANGUAGE: Readonly<Record<string, readonly string[]>> = {
  English: words(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen " +
      "seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand " +
      "hundreds thousands millions million billion trillion dozen dozens half halves twice thrice double triple quadruple single " +
      "first third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth twentieth " +
      "thirtieth hundredth thousandth",
  ),
  German: words(
    "eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf zwanzig dreißig vierzig fünfzig " +
      "hundert tausend million millionen milliarde milliarden hälfte doppelt zweimal dreimal",
  ),
  French: words(
    "deux trois quatre cinq sept huit dix onze douze vingt trente quarante cinquante cent mille " +
      "million millions milliard milliards moitié",
  ),
  Spanish: words(
    "dos tres cuatro cinco seis siete ocho nueve diez doce quince veinte treinta cien ciento mil " +
      "millón millones mitad doble",
  ),
  Portuguese: words(
    "dois duas três quatro cinco seis sete oito nove dez onze doze vinte trinta cem cento mil " +
      "milhão milhões metade dobro",
  ),
  Italian: words(
    "tre quattro cinque sette otto nove dieci undici dodici cento mille mila milione milioni metà doppio",
  ),
  Dutch: words(
    "twee drie vier vijf zes zeven acht negen tien elf twaalf twintig dertig honderd duizend miljoen miljard helft dubbel",
  ),
  Russian: words(
    "два две три четыре пять шесть семь восемь девять десять двадцать сто тысяча тысячи миллион половина",
  ),
  Hebrew: words(
    "שניים שתיים שלוש שלושה ארבע ארבעה חמש חמישה שש שישה שבעה שמונה תשע תשעה עשר עשרה עשרים מאה אלף אלפים מיליון חצי",
  ),
  Arabic: words(
    "اثنان اثنين ثلاث ثلاثة أربع أربعة خمس خمسة ستة سبعة ثمانية تسعة عشر عشرة عشرون عشرين مائة مئة ألف مليون نصف",
  ),
};

const NUMBER_WORDS = new Set(Object.values(NUMBER_WORDS_BY_LANGUAGE).flat());

const DIGITS = /\p{N}+(?:[.,]\p{N}+)?/u;

/** Chinese and Japanese numerals: one before another numeral or a counter, and the kana number words. */
const HAN_NUMERAL = "〇一二三四五六七八九十百千万萬億兆两兩";
const COUNTERS = "円元圓块塊人名個个つ回点點倍割枚本位半";
const CJK_NUMBER = new RegExp(
  `[${HAN_NUMERAL}][${HAN_NUMERAL}${COUNTERS}]|ひとつ|ふたつ|みっつ|よっつ|いつつ|ふたり|半分`,
  "u",
);

/** The first amount or number word in a framing text, or null: story and question must state no numbers. */
export function numberIn(text: string): string | null {
  const digit = DIGITS.exec(text);
  if (digit) return digit[0];
  const cjk = CJK_NUMBER.exec(text);
  if (cjk) return cjk[0];
  return tokenize(text).find((token) => NUMBER_WORDS.has(token.word))?.word ?? null;
}

/**
 * Inflections of one scale word, read as that word: a unit may write "1 million" and "5 millions", "1 mille"
 * and "5 mila", "1 тысяча" and "5 тысячи", and still state one scale for every amount.
 */
const SAME_SCALE: Readonly<Record<string, string>> = Object.fromEntries(
  [
    ["hundred", "hundreds"],
    ["cien", "ciento"],
    ["cem", "cento"],
    ["thousand", "thousands"],
    ["mille", "mila"],
    ["тысяча", "тысячи"],
    ["אלף", "אלפים"],
    ["million", "millions", "millionen", "millón", "millones", "milhão", "milhões", "milione", "milioni"],
    ["milliard", "milliards", "milliarde", "milliarden"],
    ["dozen", "dozens"],
    ["half", "halves"],
  ].flatMap((forms) => forms.map((form) => [form, forms[0] as string])),
);

/**
 * Every amount and number word of a text, in order, each inflected scale word as its first form: what a
 * unit states besides its `{n}`. The two unit forms (|n| = 1 and the others) must state the same, or one
 * form would scale the amounts it is used for ("1 thousand points" beside "5 points").
 */
export function scaleWordsIn(text: string): string[] {
  const found: { at: number; word: string }[] = [];
  for (const match of text.matchAll(new RegExp(DIGITS.source, "gu"))) {
    found.push({ at: match.index, word: match[0] });
  }
  for (const match of text.matchAll(new RegExp(CJK_NUMBER.source, "gu"))) {
    found.push({ at: match.index, word: match[0] });
  }
  for (const token of tokenize(text)) {
    if (NUMBER_WORDS.has(token.word))
      found.push({ at: token.start, word: SAME_SCALE[token.word] ?? token.word });
  }
  return found.sort((a, b) => a.at - b.at).map(({ word }) => word);
}

/**
 * Words that put a sign on the amount beside them, in the languages above. An amount's sign comes from the
 * game through `{n}`; a unit "minus {n} points" would show a payoff of 5 as a loss of 5.
 */
const SIGN_WORDS = new Set([
  "minus",
  "negative",
  "negativ",
  "négatif",
  "négative",
  "negativo",
  "negativa",
  "negatief",
  "moins",
  "menos",
  "meno",
  "минус",
  "מינוס",
  "ناقص",
  "سالب",
]);

/** The first sign word of a text ("minus"), or null. */
export function signWordIn(text: string): string | null {
  return tokenize(text).find((token) => SIGN_WORDS.has(token.word))?.word ?? null;
}
