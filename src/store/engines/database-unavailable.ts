/**
 * Whether a failure means the record's database could not be reached — PostgreSQL restarting, shutting
 * down, refusing connections or a dropped socket — rather than a statement it refused. Such a call did
 * not change the record (a transaction the connection lost is rolled back by the server) and succeeds
 * when the database is back, so clients are told to retry, never shown the driver's words.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") {
    // SQLSTATE class 08 (connection exception); 57P01–57P04 (admin/crash shutdown, cannot connect now,
    // database dropped); 53300 (too many connections); the database refusing connections while an
    // operator works on it (55000, ALLOW_CONNECTIONS false), or not there (3D000: being restored or
    // renamed) or refusing the credentials (28000, 28P01: rotated) — each met when a connection opens, and
    // each passes once the operator is done; and the socket errors of the driver.
    if (code.startsWith("08") || /^57P0[1-4]$/.test(code) || CONNECT_REFUSALS.has(code)) return true;
    if (SOCKET_ERRORS.has(code)) return true;
  }
  return /Connection terminated|connection (?:is )?closed|Client has encountered a connection error/i.test(
    error.message,
  );
}

const CONNECT_REFUSALS = new Set(["53300", "55000", "3D000", "28000", "28P01"]);

const SOCKET_ERRORS = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/** What a client is told instead: one sentence, no address, no driver text. */
export const DATABASE_UNAVAILABLE_MESSAGE =
  "The record's database is unavailable for a moment (restarting or unreachable): retry this call in a few seconds (a retried move is recorded once).";
