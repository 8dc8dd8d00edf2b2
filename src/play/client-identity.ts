import { printable } from "../queries/format.js";

/** The longest player label a caller may give (`player`); a label derived from the client stays within it. */
export const PLAYER_LABEL_MAX = 200;

// `name@version` is at most 150 + 1 + 49 characters: within PLAYER_LABEL_MAX.
const NAME_MAX = 150;
const VERSION_MAX = 49;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * What the MCP client says of itself at initialization, as the server keeps it: the player label of a
 * caller that names no player is `name@version`, and the session records both. The client's text comes
 * unchecked, so it is made a label the way the `player` argument's checks would accept one: a control
 * character (NUL, ESC, a line break) is written as `\x00`, a lone surrogate as U+FFFD, and each part is
 * cut (with "…") so the label stays within PLAYER_LABEL_MAX. The same client always gets the same label.
 */
export function cleanClientInfo(info: { name: string; version: string }): { name: string; version: string } {
  return { name: cleaned(info.name, NAME_MAX), version: cleaned(info.version, VERSION_MAX) };
}

function cleaned(text: string, max: number): string {
  // Cut before escaping, so a megabyte of controls costs no megabyte of escapes.
  const head = text.length > max * 4 ? text.slice(0, max * 4) : text;
  const readable = printable(head.replace(LONE_SURROGATE, "\uFFFD")).trim();
  return readable.length > max || head !== text ? `${wholeCharacters(readable, max - 1)}…` : readable;
}

/** The first `units` UTF-16 units of `text`, one fewer where the cut would split an emoji's surrogate pair. */
function wholeCharacters(text: string, units: number): string {
  const last = text.charCodeAt(units - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? units - 1 : units);
}
