// SQLite's own words for a write it could not make — "database or disk is full", "database is locked" —
// say neither whether the call counted nor what to do. Each of these rolled the call's transaction back
// whole, so nothing of it is in the record, and each passes once the disk has room again or the other
// writer is done: the client is told so, and that a retried move is recorded once (submit_move is
// idempotent per match and round).

/** Why SQLite refused a write for a reason that passes, or null when `error` is not such a refusal. */
export function passingWriteFailure(error: unknown): "full" | "busy" | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "SQLITE_FULL") return "full";
  if (code === "SQLITE_BUSY" || (typeof code === "string" && code.startsWith("SQLITE_BUSY_"))) return "busy";
  return null;
}

export const RECORD_DISK_FULL_MESSAGE =
  "The disk holding the record is full: this call was not recorded. Free space on it, then retry this call (a retried move is recorded once).";

export const RECORD_BUSY_MESSAGE =
  "The record is busy: another process (an import, say) held its write lock for more than 10 s, and this call was not recorded. Retry it in a few seconds (a retried move is recorded once).";

/** The sentence a tool answers with for a write SQLite refused for a passing reason, or null. */
export function recordWriteRefusal(error: unknown): string | null {
  const failure = passingWriteFailure(error);
  if (failure === "full") return RECORD_DISK_FULL_MESSAGE;
  if (failure === "busy") return RECORD_BUSY_MESSAGE;
  return null;
}

/** The one line a command prints instead of a stack trace for such a refusal, or null. */
export function recordWriteFailureLine(error: unknown): string | null {
  const failure = passingWriteFailure(error);
  if (failure === "full") {
    return "the disk holding the record is full: what this command was writing was rolled back, nothing of it is in the record; free space there and run it again.";
  }
  if (failure === "busy") {
    return "the record is busy: another process held its write lock for more than 10 s, and what this command was writing was rolled back; run it again once that process is done.";
  }
  return null;
}
