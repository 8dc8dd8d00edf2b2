// stdout is the MCP protocol channel of `same-game serve`: every diagnostic goes to stderr.

export function logInfo(message: string): void {
  process.stderr.write(`same-game: ${message}\n`);
}

export function logError(message: string, error: unknown): void {
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`same-game: ${message}: ${detail}\n`);
}
