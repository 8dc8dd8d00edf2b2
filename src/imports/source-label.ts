import { UsageError } from "../usage-error.js";

/** As long as any other label of the record (player, game, framing in an import). */
export const MAX_SOURCE_LENGTH = 200;

// C0/C1 controls, DEL and the bidirectional overrides: a source label is printed in tables and logs, where
// an escape sequence or a newline would act on the operator's terminal or forge a line.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/**
 * The label an import is stored under (`--source`, or by default the file's name or the reference id):
 * 1–200 characters, none of them a control character. Returned unchanged when valid.
 */
export function checkSourceLabel(source: string): string {
  const shown = source.length > 40 ? `${source.slice(0, 40)}…` : source;
  if (source.trim() === "" || source.length > MAX_SOURCE_LENGTH || CONTROL.test(source)) {
    throw new UsageError(
      `--source must be 1 to ${MAX_SOURCE_LENGTH} characters with no control character (newline, escape, …); got "${shown}" (${source.length} characters). A file name that is not a valid label needs --source.`,
    );
  }
  return source;
}
