import { printable } from "./queries/format.js";

// stdout is the MCP protocol channel of `same-game serve`: every diagnostic goes to stderr.

/**
 * The longest message one log line carries. A message holds text from outside (a client's value, an
 * endpoint's error body): cut here, a client or endpoint that sends a megabyte writes a bounded line.
 */
export const MAX_LOG_MESSAGE_CHARS = 2000;

export function logInfo(message: string): void {
  logLine("same-game", message);
}

/**
 * One line on stderr, `source: message`: every control character of the message (a newline, a carriage
 * return, an escape sequence, a bidi override) shown escaped as `\x1b`, so text from outside can neither
 * forge a line nor drive the operator's terminal, and the message cut at MAX_LOG_MESSAGE_CHARS.
 */
export function logLine(source: string, message: string): void {
  writeStderr(`${source}: ${oneLogLine(message)}\n`);
}

/** A message as one bounded, printable line (what logLine writes after its source). */
export function oneLogLine(message: string): string {
  // Cut before escaping (an escape is 4 characters for 1), then cut what the escapes lengthened.
  const head = message.length > MAX_LOG_MESSAGE_CHARS ? message.slice(0, MAX_LOG_MESSAGE_CHARS) : message;
  const shown = printable(head);
  const cut = message.length - head.length;
  if (cut === 0 && shown.length <= MAX_LOG_MESSAGE_CHARS) return shown;
  return `${shown.slice(0, MAX_LOG_MESSAGE_CHARS)}… (${message.length} characters, cut)`;
}

/**
 * The most log text that may wait for stderr's reader. A pipe nobody reads (a host that never drains it)
 * would otherwise hold every line in memory for as long as the server runs; past this, lines are counted
 * and dropped, and their number is written once the reader catches up.
 */
export const MAX_QUEUED_LOG_BYTES = 1024 * 1024;

let droppedLines = 0;

function writeStderr(text: string): void {
  const stream = process.stderr;
  if (stream.writableLength > MAX_QUEUED_LOG_BYTES) {
    // The queue is past the stream's high-water mark, so a 'drain' is due once the reader empties it.
    if (droppedLines++ === 0) {
      stream.once("drain", () => {
        const count = droppedLines;
        droppedLines = 0;
        writeStderr(
          `same-game: … ${count} log line${count === 1 ? "" : "s"} dropped while stderr was not read\n`,
        );
      });
    }
    return;
  }
  try {
    stream.write(text);
  } catch {
    // A synchronous EPIPE on a closed stderr: nothing to report it to.
  }
}

/**
 * A failure with its stack: the error's own message on the first line, escaped and bounded as logLine
 * does (a message may quote a client's value), then the stack's frames, which are the program's own.
 */
export function logError(message: string, error: unknown): void {
  const headline = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const stack = error instanceof Error ? (error.stack ?? "") : "";
  const firstFrame = stack.indexOf("\n    at ");
  const frames = firstFrame === -1 ? "" : stack.slice(firstFrame);
  writeStderr(`same-game: ${oneLogLine(`${message}: ${headline}`)}${frames}\n`);
}

/**
 * When whoever reads stderr goes away (a closed pipe, a host that stopped listening), a write fails with
 * EPIPE; unhandled, that error would end the server in the middle of a match. Diagnostics are best
 * effort: such failures are dropped and the protocol on stdout carries on.
 */
export function keepStderrFailuresHarmless(stream: NodeJS.WriteStream = process.stderr): void {
  stream.on("error", () => {});
}
