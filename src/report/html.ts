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

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
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

/** Markup produced by a trusted renderer (vega's SVG), inserted as is. */
export function trustedHtml(markup: string): SafeHtml {
  return new SafeHtml(markup);
}
