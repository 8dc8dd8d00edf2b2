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

/**
 * The value of the option that stands for the model's own choice of several names. Names are trimmed,
 * so no name can be this value.
 */
export const ASKED = " asked";

/**
 * A `<select>` with an "all" choice first. `chosen` is the analyst's choice; `null` shows `asked`, what
 * the model's own arguments chose: its one name, or an option of its own for several.
 */
export function selectOf(
  name: string,
  allLabel: string,
  options: readonly string[],
  chosen: string | null,
  asked: readonly string[] = [],
) {
  const select = el("select", { name, "data-filter": name });
  select.append(el("option", { value: "" }, allLabel));
  const listed = [...options, ...asked.filter((a) => !options.includes(a))];
  for (const option of listed) select.append(el("option", { value: option }, option));
  if (asked.length > 1) select.append(el("option", { value: ASKED }, asked.join(", ")));
  const shown = chosen ?? (asked.length > 1 ? ASKED : (asked[0] ?? ""));
  select.value = shown === ASKED || listed.includes(shown) ? shown : "";
  return select;
}

/**
 * A `<select multiple>` of names: none chosen is all. `chosen` is the analyst's choice; `null` shows
 * `asked`, the model's own list.
 */
export function multiSelectOf(
  name: string,
  options: readonly string[],
  chosen: readonly string[] | null,
  asked: readonly string[] = [],
) {
  const select = el("select", {
    name,
    "data-filter": name,
    multiple: "",
    size: String(Math.max(2, Math.min(4, options.length + asked.length))),
  });
  const selected = new Set(chosen ?? asked);
  for (const option of [...options, ...asked.filter((a) => !options.includes(a))]) {
    const item = el("option", { value: option }, option);
    item.selected = selected.has(option);
    select.append(item);
  }
  return select;
}

// The view's tables write a number as the CLI's tables and the report do: one rule, one function.
export { fixed as formatNumber } from "../queries/format.js";
