// stdout is the MCP protocol channel of `same-game serve`: every diagnostic goes to stderr.

export function logInfo(message: string): void {
  writeStderr(`same-game: ${message}\n`);
}

function writeStderr(text: string): void {
  try {
    process.stderr.write(text);
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
