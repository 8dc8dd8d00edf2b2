import { type Token, wordsOf } from "./labels.js";

// Words and phrases that negate or reject a label named beside them, beyond English (parseReply.ts keeps
// the English ones, which need context: "the other player", "no doubt"). Every reply is read against
// every language here, whatever its framing's language: a label next to a negation of any of them is
// refused, never taken for a choice. A word that also has a common meaning that negates nothing is left
// out: German "noch" ("still"), Spanish "sin" (an English word), Hebrew "אל" (also "to"), Chinese "非"
// ("very" in "非常") and "无" ("regardless" in "无论"). In scripts written without spaces a phrase is
// found inside longer runs of letters ("書きません" contains "ません"). A framing adds its own
// (`negations` in its file) for a language or idiom not here.
export const NEGATION_WORDS: Readonly<Record<string, readonly string[]>> = {
  German: [
    "nicht",
    "nichts",
    "kein",
    "keine",
    "keinen",
    "keinem",
    "keiner",
    "keines",
    "nie",
    "niemals",
    "nein",
    "weder",
    "ohne",
    "statt",
    "anstatt",
    "anstelle",
    "außer",
    "ausser",
    "vermeide",
    "vermeiden",
    "lehne",
    "ablehnen",
  ],
  French: [
    "ne",
    "pas",
    "jamais",
    "non",
    "ni",
    "aucun",
    "aucune",
    "rien",
    "sans",
    "sauf",
    "refuse",
    "refuser",
    "évite",
    "éviter",
    "au lieu de",
    "plutôt que",
  ],
  Spanish: [
    "no",
    "nunca",
    "jamás",
    "ni",
    "ningún",
    "ninguno",
    "ninguna",
    "nada",
    "tampoco",
    "rechazo",
    "rechazar",
    "evito",
    "evitar",
    "excepto",
    "salvo",
    "en vez de",
    "en lugar de",
  ],
  Portuguese: [
    "não",
    "nunca",
    "jamais",
    "nem",
    "nenhum",
    "nenhuma",
    "nada",
    "sem",
    "recuso",
    "recusar",
    "evito",
    "evitar",
    "exceto",
    "em vez de",
    "ao invés de",
  ],
  Italian: [
    "non",
    "mai",
    "né",
    "nessun",
    "nessuno",
    "nessuna",
    "niente",
    "nulla",
    "senza",
    "rifiuto",
    "rifiutare",
    "evito",
    "evitare",
    "tranne",
    "eccetto",
    "invece",
    "anziché",
  ],
  Dutch: [
    "niet",
    "niets",
    "geen",
    "nooit",
    "nee",
    "zonder",
    "behalve",
    "weiger",
    "weigeren",
    "vermijd",
    "vermijden",
    "in plaats van",
  ],
  Russian: ["не", "нет", "ни", "никогда", "без", "вместо", "кроме", "отказываюсь"],
  Hebrew: [
    "לא",
    "ולא",
    "שלא",
    "אין",
    "איני",
    "אינני",
    "אינו",
    "אינה",
    "אינך",
    "בלי",
    "ללא",
    "מבלי",
    "במקום",
    "חוץ",
    "מלבד",
    "מסרב",
    "מסרבת",
    "נמנע",
    "נמנעת",
    "להימנע",
    "מעולם",
  ],
  Arabic: [
    "لا",
    "ولا",
    "لن",
    "ولن",
    "لم",
    "ولم",
    "ليس",
    "لست",
    "ليست",
    "غير",
    "بدون",
    "دون",
    "سوى",
    "إلا",
    "بدلا",
    "بدلاً",
    "أرفض",
    "أتجنب",
    "أبدا",
    "أبداً",
  ],
  Japanese: ["ない", "なく", "なかった", "ません", "いいえ", "やめ", "拒否", "避け", "以外", "代わり"],
  Chinese: ["不", "没", "沒", "别", "別", "勿", "拒绝", "拒絕", "避免", "除了", "而非", "并非", "並非"],
  Thai: ["ไม่", "อย่า"],
};

/** Finds negation phrases in a token sequence: each phrase as its words, indexed by its first word. */
export interface NegationMatcher {
  /** The number of tokens of the negation phrase starting at token i, or 0 when none starts there. */
  readonly lengthAt: (tokens: readonly Token[], i: number) => number;
}

function matcherOf(phrases: readonly string[]): NegationMatcher {
  const byFirstWord = new Map<string, string[][]>();
  for (const phrase of phrases) {
    const words = wordsOf(phrase);
    const first = words[0];
    if (first === undefined) continue;
    byFirstWord.set(first, [...(byFirstWord.get(first) ?? []), words]);
  }
  return {
    lengthAt: (tokens, i) => {
      const candidates = byFirstWord.get((tokens[i] as Token).word) ?? [];
      const found = candidates.filter((words) => words.every((word, k) => tokens[i + k]?.word === word));
      return Math.max(0, ...found.map((words) => words.length));
    },
  };
}

const BUILT_IN = Object.values(NEGATION_WORDS).flat();
const builtIn = matcherOf(BUILT_IN);
const withOwn = new WeakMap<readonly string[], NegationMatcher>();

/** The built-in negations of every language, plus a framing's own (`negations` in its file), if any. */
export function negationMatcher(own: readonly string[] = []): NegationMatcher {
  if (own.length === 0) return builtIn;
  let matcher = withOwn.get(own);
  if (matcher === undefined) {
    matcher = matcherOf([...BUILT_IN, ...own]);
    withOwn.set(own, matcher);
  }
  return matcher;
}
