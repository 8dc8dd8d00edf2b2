// A tagged template that escapes every interpolated string, so text from the data (player names may
// contain <, & or quotes) can never become markup. Only values already wrapped as SafeHtml pass through.

export class SafeHtml {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

export type HtmlValue = string | number | SafeHtml | readonly SafeHtml[] | null | undefined;

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * The bidirectional embeddings, overrides and isolates: one in a player's name would reorder every word
 * after it on the line (U+202E turns the rest of the line backwards). They are shown as the CLI shows
 * them, `\u202e`, never applied.
 */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g;

/** Text with its bidirectional controls written out as `\uXXXX`. */
export function withVisibleBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

export function escapeHtml(text: string): string {
  return withVisibleBidiControls(text).replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

function renderValue(value: HtmlValue): string {
  if (value === null || value === undefined) return "";
  if (value instanceof SafeHtml) return value.text;
  if (Array.isArray(value)) return value.map((v: SafeHtml) => v.text).join("");
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] ?? "";
  values.forEach((value, i) => {
    out += renderValue(value) + (strings[i + 1] ?? "");
  });
  return new SafeHtml(out);
}

/**
 * A name the user gave (a player, study, source or framing) set apart from the text around it: a name
 * written right to left (Hebrew, Arabic) keeps its own order and does not reorder its neighbours, as
 * "alpha, מודל-1, נמר-2" would without it (the digits and commas move).
 */
export function isolated(name: string): SafeHtml {
  return html`<bdi>${name}</bdi>`;
}

/** Names as a sentence lists them, each isolated (see label-list.ts for the quoting). */
export function isolatedList(names: readonly string[], quote: (name: string) => string = (n) => n): SafeHtml {
  return new SafeHtml(names.map((n) => isolated(quote(n)).text).join(", "));
}

/** Markup produced by a trusted renderer (vega's SVG), inserted as is. */
export function trustedHtml(markup: string): SafeHtml {
  return new SafeHtml(markup);
}
