// Text that may reach a terminal: a player label, a reply or an unknown id is the client's text, so its
// control characters are shown escaped, never executed. Used by every layer that echoes such text (the
// catalog's refusals, the tools' errors, the CLI's tables), hence at the top of src/.

// C0/C1 controls, DEL, and the bidirectional overrides that reorder what a terminal shows.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A cell as it may reach an operator's terminal: a player label or reply is the client's text, so an
 * escape sequence in it is shown as `\x1b`, never executed, and a newline cannot break the table.
 */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff
      ? `\\x${code.toString(16).padStart(2, "0")}`
      : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}

/**
 * Text bound for a terminal, line by line: its own line breaks kept, every other control character
 * escaped as `printable` does. What a CLI verb prints passes through it, so a label that reached a line
 * unescaped still cannot send an escape sequence; a label's own line break is escaped where it is written.
 */
export function printableLines(text: string): string {
  return text.split("\n").map(printable).join("\n");
}
