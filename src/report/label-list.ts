import { csvField } from "../exports/csv-writer.js";
import { isolatedList, type SafeHtml } from "./html.js";

// Framing and player names are free text once imported (`--free-framings`): one may hold a comma, as
// "home, work" does. Lists of them are written so that each name can be told apart again.

/** Names as one CSV record, the form a list flag reads (`--framings '"home, work",office'`). */
export function csvList(names: readonly string[]): string {
  return names.map(csvField).join(",");
}

/** Names as a sentence lists them: ", " between, a name holding a comma or a quote in double quotes. */
export function labelList(names: readonly string[]): string {
  return names.map(csvField).join(", ");
}

/** The same list in a page, each name isolated from its neighbours' writing direction (html.ts). */
export function labelListHtml(names: readonly string[]): SafeHtml {
  return isolatedList(names, csvField);
}
