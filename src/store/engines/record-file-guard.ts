import { statSync } from "node:fs";
import { resolve } from "node:path";

// SQLite writes through the descriptors it opened, not through the path. When the record file is deleted,
// moved or replaced (a backup restored over it with `mv`) while a server holds it, or its -wal is removed,
// every later commit still succeeds — into a file nobody will open again, or into a -wal that SQLite will
// later replay over whatever file now has the name. Each such decision was answered as recorded and is
// lost. The guard compares the path with the files the connection opened (device and inode), before a
// write transaction (nothing is written into a log that now belongs to another file) and after its commit
// (a call is never answered as recorded when its commit went elsewhere).

/**
 * A write refused because the record's path no longer names the files this connection writes. The message
 * is for clients (remote ones too) and names no path; `file` is the one for the operator's log.
 */
export class RecordFileGoneError extends Error {
  override readonly name = "RecordFileGoneError";
  constructor(
    message: string,
    readonly file: string,
  ) {
    super(message);
  }
}

/** The file at `path` as (device, inode), or null when nothing is there. Checked around every write
 * transaction, so a missing file is read as an answer (no exception: about twice as dear). */
function fileId(path: string): string | null {
  try {
    const stat = statSync(path, { throwIfNoEntry: false });
    return stat === undefined ? null : `${stat.dev}:${stat.ino}`;
  } catch {
    return null; // a folder on the path gone or unreadable: the file is not there for this server either
  }
}

export class RecordFileGuard {
  private readonly path: string;
  private readonly recordId: string | null;
  /** The -wal this connection writes; null until it exists (a record not yet read has none). */
  private walId: string | null;

  /** `path` is the record as SQLite opened it; the files are taken as they are now. */
  constructor(path: string) {
    this.path = resolve(path);
    this.recordId = fileId(this.path);
    this.walId = fileId(`${this.path}-wal`);
  }

  /** Throws RecordFileGoneError when the record or its -wal is no longer at its path. */
  check(): void {
    const record = fileId(this.path);
    if (record === null || record !== this.recordId) {
      const what = record === null ? "deleted or moved away" : "replaced by another file";
      throw new RecordFileGoneError(
        `The record file was ${what} while this server was running: this call was not recorded, and nothing more can be until the server is started again on the record.`,
        this.path,
      );
    }
    const wal = fileId(`${this.path}-wal`);
    if (this.walId === null) {
      this.walId = wal;
      return;
    }
    if (wal !== this.walId) {
      throw new RecordFileGoneError(
        "The record's write-ahead log (its -wal file) was deleted or replaced while this server was running: this call was not recorded, and nothing more can be until the server is started again on the record.",
        `${this.path}-wal`,
      );
    }
  }
}
