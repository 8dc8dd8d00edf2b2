// vega's SVG is written for an interactive page: every mark carries an aria-label, a role and a role
// description, every group an empty background and foreground path, every coordinate 17 digits, every
// mark its own copy of the fill and font. In a report of a large record that is most of the file (1.3 MB
// for 880 cells) and, for a screen reader, some thousand announcements per chart. A report chart is a
// picture with a caption: it is marked up as one image (role="img") with one accessible name, its caption
// being its description, and drawn with the same geometry to 1/10 px (the charts are shown scaled down).

/** Attributes that only serve per-mark accessibility or interaction, which a static image does not have. */
const DROPPED = new Set([
  "aria-label",
  "aria-roledescription",
  "aria-hidden",
  "role",
  "pointer-events",
  "class",
]);
/** Presentation attributes children inherit: a value every child of a group repeats can live on the group. */
const INHERITED = [
  "fill",
  "fill-opacity",
  "stroke",
  "stroke-width",
  "font-family",
  "font-size",
  "text-anchor",
];

interface Element {
  name: string;
  attrs: Map<string, string>;
  children: Node[];
}
type Node = Element | string;

/**
 * The chart's SVG as one accessible image named `name`, with the same pictures in far fewer bytes. The
 * name is also its <title> (a tooltip, and the name where the SVG is opened on its own) and `description`,
 * when given, its <desc>.
 */
export function compactSvg(svg: string, name: string, description?: string): string {
  const root = parse(svg);
  if (root === undefined || root.name !== "svg") return svg;
  compact(root);
  root.attrs.set("role", "img");
  root.attrs.set("aria-label", escapeText(name).replace(/"/g, "&quot;"));
  const labels: Element[] = [{ name: "title", attrs: new Map(), children: [escapeText(name)] }];
  if (description !== undefined)
    labels.push({ name: "desc", attrs: new Map(), children: [escapeText(description)] });
  root.children.unshift(...labels);
  return serialize(root);
}

function compact(element: Element): void {
  for (const child of element.children) if (typeof child !== "string") compact(child);
  element.children = element.children.flatMap((child) => {
    if (typeof child === "string") return [child];
    if (drawsNothing(child)) return [];
    // A group with no attributes is no group: its children stand in its place.
    if (child.name === "g" && child.attrs.size === 0) return child.children;
    return [child];
  });
  for (const [key, value] of element.attrs) {
    if (DROPPED.has(key)) element.attrs.delete(key);
    else element.attrs.set(key, GEOMETRY.has(key) ? tenthsOfPixels(value) : shortNumbers(value));
  }
  if (element.attrs.get("opacity") === "1") element.attrs.delete("opacity");
  placeText(element);
  // A filled shape without a stroke looks the same with its opacity on the fill, which children inherit.
  const opacity = element.attrs.get("opacity");
  if (opacity !== undefined && element.name === "path" && !element.attrs.has("stroke")) {
    element.attrs.delete("opacity");
    element.attrs.set("fill-opacity", opacity);
  }
  hoistShared(element);
  mergeLines(element);
}

/**
 * A group of bare line segments (whiskers, ticks: a translate, an end point, the group's stroke) is one
 * path of "move, line" steps: the same strokes, a third of the bytes. A segment encloses no area, so the
 * path's fill draws nothing, as a line's does not.
 */
function mergeLines(group: Element): void {
  if (group.name !== "g" || group.children.length < 2) return;
  const steps: string[] = [];
  for (const child of group.children) {
    if (typeof child === "string" || child.name !== "line" || child.children.length > 0) return;
    const at = /^translate\((-?[\d.]+),(-?[\d.]+)\)$/.exec(child.attrs.get("transform") ?? "");
    const x2 = child.attrs.get("x2") ?? "0";
    const y2 = child.attrs.get("y2") ?? "0";
    const geometryOnly = [...child.attrs.keys()].every((k) => k === "transform" || k === "x2" || k === "y2");
    if (!at || !geometryOnly || !/^-?[\d.]+$/.test(x2) || !/^-?[\d.]+$/.test(y2)) return;
    const move = `M${at[1]},${at[2]}`;
    steps.push(
      Number(x2) === 0 ? `${move}v${y2}` : Number(y2) === 0 ? `${move}h${x2}` : `${move}l${x2},${y2}`,
    );
  }
  group.children = [{ name: "path", attrs: new Map([["d", steps.join("")]]), children: [] }];
}

/**
 * A text placed by a bare translate is placed by x and y instead: the same position in half the bytes
 * (a report of many cells has thousands of labels). A text with its own x or y, or a rotation, keeps its
 * transform.
 */
function placeText(element: Element): void {
  if (element.name !== "text" || element.attrs.has("x") || element.attrs.has("y")) return;
  const at = /^translate\((-?[\d.]+),(-?[\d.]+)\)$/.exec(element.attrs.get("transform") ?? "");
  if (!at) return;
  element.attrs.delete("transform");
  element.attrs.set("x", at[1] as string);
  element.attrs.set("y", at[2] as string);
}

/** Moves an inherited attribute that every element child sets alike (and the group does not) onto the group. */
function hoistShared(group: Element): void {
  if (group.name !== "g") return;
  const elements = group.children.filter((c): c is Element => typeof c !== "string");
  if (elements.length < 2 || elements.length !== group.children.length) return;
  for (const key of INHERITED) {
    if (group.attrs.has(key)) continue;
    const value = elements[0]?.attrs.get(key);
    if (value === undefined || !elements.every((e) => e.attrs.get(key) === value)) continue;
    for (const e of elements) e.attrs.delete(key);
    group.attrs.set(key, value);
  }
}

/** Zero-area backgrounds and empty hidden foregrounds: paths with nothing to draw. */
function drawsNothing(e: Element): boolean {
  if (e.name !== "path" || e.children.length > 0) return false;
  const d = e.attrs.get("d");
  return d === "" || (d === "M0,0h0v0h0Z" && !e.attrs.has("fill") && !e.attrs.has("stroke"));
}

/** Attributes that place or draw in pixels: drawn to 1/10 px, a tenth of the smallest text's stroke. */
const GEOMETRY = new Set(["d", "transform", "x", "y", "x2", "y2", "width", "height"]);

/** Pixel positions (and the degrees of a rotation, whole numbers in these charts) to one decimal. */
function tenthsOfPixels(value: string): string {
  return value.replace(/-?\d+\.\d{2,}/g, (n) => String(Number(Number(n).toFixed(1))));
}

/** Decimals inside any other attribute (an opacity) to two places; text content is never touched. */
function shortNumbers(value: string): string {
  return value.replace(/-?\d+\.\d{3,}/g, (n) => String(Number(Number(n).toFixed(2))));
}

/** vega's SVG: elements, attributes in double quotes, escaped text; no comments, CDATA or doctype. */
function parse(svg: string): Element | undefined {
  const stack: Element[] = [{ name: "#root", attrs: new Map(), children: [] }];
  const token = /<(\/?)([\w:-]+)((?:\s+[\w:-]+="[^"]*")*)\s*(\/?)>|([^<]+)/g;
  for (const m of svg.matchAll(token)) {
    const [, closing, tag, attrText, selfClosing, text] = m;
    const parent = stack[stack.length - 1] as Element;
    if (text !== undefined) {
      parent.children.push(text);
    } else if (closing) {
      stack.pop();
    } else {
      const attrs = new Map<string, string>();
      for (const a of (attrText ?? "").matchAll(/([\w:-]+)="([^"]*)"/g))
        attrs.set(a[1] as string, a[2] as string);
      const element: Element = { name: tag as string, attrs, children: [] };
      parent.children.push(element);
      if (!selfClosing) stack.push(element);
    }
  }
  const root = stack[0]?.children.find((c): c is Element => typeof c !== "string");
  return stack.length === 1 ? root : undefined;
}

function serialize(e: Element): string {
  const attrs = [...e.attrs].map(([k, v]) => ` ${k}="${v}"`).join("");
  if (e.children.length === 0) return `<${e.name}${attrs}/>`;
  const inner = e.children.map((c) => (typeof c === "string" ? c : serialize(c))).join("");
  return `<${e.name}${attrs}>${inner}</${e.name}>`;
}

function escapeText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
