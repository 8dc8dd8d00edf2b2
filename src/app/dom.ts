/** A DOM element with attributes and children; text goes in as text nodes, never as markup. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  ...children: (Node | string | null)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  for (const child of children) if (child !== null) node.append(child);
  return node;
}

/** A `<select>` with an "all" choice first; `value` stays selected when it is among the options. */
export function selectOf(name: string, allLabel: string, options: readonly string[], value: string) {
  const select = el("select", { name, "data-filter": name });
  select.append(el("option", { value: "" }, allLabel));
  for (const option of options) select.append(el("option", { value: option }, option));
  select.value = options.includes(value) ? value : "";
  return select;
}

export function formatNumber(value: number | null | undefined, digits = 3): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "—";
  const text = value.toFixed(digits);
  // A tiny negative rounds to "-0.000"; zero has no sign.
  return /^-0\.?0*$/.test(text) ? text.slice(1) : text;
}
