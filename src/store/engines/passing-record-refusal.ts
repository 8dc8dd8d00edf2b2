import { DATABASE_UNAVAILABLE_MESSAGE } from "./database-unavailable.js";
import { RECORD_BUSY_MESSAGE, RECORD_DISK_FULL_MESSAGE } from "./record-write-refusal.js";

// The tool answers that say a call was not recorded for a reason that passes (the record's disk full, its
// write lock held by another process, its database restarting). A client that sees one may make the same
// call again: nothing of the first is in the record, and a retried move is recorded once.

const PASSING = new Set([RECORD_BUSY_MESSAGE, RECORD_DISK_FULL_MESSAGE, DATABASE_UNAVAILABLE_MESSAGE]);

/** Whether a tool's error text is one of those answers. */
export function isPassingRecordRefusal(text: string): boolean {
  return PASSING.has(text.trim());
}
