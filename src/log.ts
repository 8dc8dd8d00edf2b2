// stdout is the MCP protocol channel of `same-game serve`: every diagnostic goes to stderr.

export function logInfo(message: string): void {
  writeStderr(`same-game: ${message}\n`);
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

export function logError(message: string, error: unknown): void {
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  writeStderr(`same-game: ${message}: ${detail}\n`);
}

/**
 * When whoever reads stderr goes away (a closed pipe, a host that stopped listening), a write fails with
 * EPIPE; unhandled, that error would end the server in the middle of a match. Diagnostics are best
 * effort: such failures are dropped and the protocol on stdout carries on.
 */
export function keepStderrFailuresHarmless(stream: NodeJS.WriteStream = process.stderr): void {
  stream.on("error", () => {});
}
