import { UsageError } from "../usage-error.js";

// A lone UTF-16 surrogate (half of an emoji, say) cannot be written as UTF-8: SQLite would store bytes
// that are not the text received. same-game refuses such text where it enters the record instead of
// altering it, so everything stored is exactly what the client sent.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// PostgreSQL's text cannot hold U+0000 at all; it is refused on both engines, so a record means the same
// whichever holds it (and an SQLite record can always be moved to PostgreSQL).
const NUL = "\u0000";

/** Throws a UsageError naming the field and the position of the first lone surrogate or NUL, if any. */
export function requireWellFormedText<T extends object>(
  fields: T,
  names: Partial<Record<keyof T & string, string>>,
): void {
  for (const [key, label] of Object.entries(names) as [keyof T & string, string][]) {
    const value: unknown = fields[key];
    if (typeof value !== "string") continue;
    const problem = textProblem(value);
    if (problem !== null) throw new UsageError(`The ${label} ${problem}`);
  }
}

/**
 * What makes `value` unstorable, as the end of a sentence ("contains a NUL character (…), which …"), or
 * null when it is well-formed text the record can hold on either engine.
 */
export function textProblem(value: string): string | null {
  const nul = value.indexOf(NUL);
  if (nul !== -1) {
    return `contains a NUL character (U+0000 at position ${nul}), which the record cannot store; send text without it.`;
  }
  const match = LONE_SURROGATE.exec(value);
  if (match) {
    const code = value.charCodeAt(match.index).toString(16).toUpperCase();
    return `contains a lone surrogate (U+${code} at position ${match.index}), which is not valid Unicode text; send well-formed UTF-8/UTF-16 text.`;
  }
  return null;
}
