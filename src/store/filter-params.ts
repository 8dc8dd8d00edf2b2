import type { RecordFilter } from "./records.js";

/** A filter list as a JSON array parameter (read by the dialect's inJsonList); null (match everything) when absent or empty. */
export function jsonList(values: string[] | undefined): string | null {
  return values && values.length > 0 ? JSON.stringify(values) : null;
}

export function filterParams(filter: RecordFilter): Record<string, string | null> {
  return {
    players: jsonList(filter.players),
    games: jsonList(filter.games),
    variants: jsonList(filter.variants),
    framings: jsonList(filter.framings),
    study_id: filter.study_id ?? null,
  };
}
