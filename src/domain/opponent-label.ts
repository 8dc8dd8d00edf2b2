import { canonicalJson } from "./canonical-json.js";

/**
 * An opponent as read: its id, and its params as canonical JSON when it has any. One id with other
 * params is another opponent (pattern of rock alone and of scissors alone), so a table that shows only the
 * id would give two rows the same name.
 */
export function opponentLabel(
  opponent: string,
  params: Readonly<Record<string, unknown>> | undefined,
): string {
  return params === undefined || Object.keys(params).length === 0
    ? opponent
    : `${opponent} ${canonicalJson(params)}`;
}
