import * as vega from "vega";

// Headless vega has no canvas to measure text, so it guesses 0.8 em per character: about half again too
// wide for Helvetica/Arial. Layout built on that guess cuts names short and leaves wide gaps beside facet
// headers. vega supports replacing the guess (vl-convert does the same); this one uses rough Helvetica
// advance widths per kind of character, which is close enough for placing axes, legends and headers.

interface TextItem {
  fontSize?: number;
  fontWeight?: string | number;
  limit?: number;
}

/** The part of vega-scenegraph's `textMetrics` that vega's type declarations leave out. */
interface TextMetrics {
  width: (item: TextItem, text: unknown) => number;
}

function characterEm(c: string): number {
  if (" ilIjtf.,:;'!|()[]".includes(c)) return 0.3;
  if ("mwMW@%".includes(c)) return 0.85;
  if (c >= "0" && c <= "9") return 0.556;
  if (c >= "A" && c <= "Z") return 0.68;
  return 0.54;
}

export function estimateTextWidth(item: TextItem, text: unknown): number {
  const value = text === null || text === undefined ? "" : String(text).trim();
  const fontSize = item.fontSize ?? 11;
  const bold = item.fontWeight === "bold" || Number(item.fontWeight) >= 600;
  let em = 0;
  for (const c of value) em += characterEm(c);
  const width = em * fontSize * (bold ? 1.07 : 1);
  return item.limit !== undefined && item.limit > 0 ? Math.min(width, item.limit) : width;
}

/** Make vega lay out text with the estimate above; idempotent. */
export function useHelveticaTextWidths(): void {
  (vega as unknown as { textMetrics: TextMetrics }).textMetrics.width = estimateTextWidth;
}
