// The report prints the command that recomputes it; pasted into any POSIX shell it must pass every value
// unchanged, whatever characters a record's labels or its path hold.

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * One shell word for `text`: as is when it holds only characters no shell reads specially, else in single
 * quotes. A control character (an escape, a line break) would be lost or altered when the command is
 * copied from a page, so such text is written as `"$(printf '…')"` with the character as an octal escape,
 * which every POSIX shell reads back exactly.
 */
export function shellWord(text: string): string {
  if (/^[\w./:@,=+-]+$/.test(text)) return text;
  if (!CONTROL.test(text)) return `'${text.replaceAll("'", "'\\''")}'`;
  const format = [...text]
    .map((c) => {
      if (c === "\\") return "\\\\";
      if (c === "%") return "%%";
      if (c === "'") return "'\\''";
      const code = c.charCodeAt(0);
      return CONTROL.test(c) ? `\\${code.toString(8).padStart(3, "0")}` : c;
    })
    .join("");
  return `"$(printf '${format}')"`;
}
