import { isUtf8 } from "node:buffer";
import { closeSync, openSync, readSync } from "node:fs";
import { UsageError } from "../usage-error.js";

/**
 * The largest file an import reads. The biggest cell the analysis holds (10⁶ decisions) is a few dozen CSV
 * rows, and a JSONL match of 10,000 rounds is under 1 MB; 64 MiB leaves room for many thousands of matches
 * while a character device that never ends (/dev/zero) or a runaway pipe is refused instead of filling memory.
 */
export const MAX_IMPORT_BYTES = 64 * 1024 * 1024;

const CHUNK_BYTES = 1024 * 1024;

/** What each import reads, for a refusal of a file that is neither. */
export const IMPORT_FORMATS =
  "import counts reads CSV (what export counts writes with its default --format csv), import matches reads JSONL (what export matches --format jsonl writes)";

/**
 * Files that are not text but are easily handed to an import (the tool's own Parquet export, the record
 * itself, a spreadsheet), by the bytes such a file starts with: named as what they are instead of refused
 * for the first NUL byte in them.
 */
const BINARY_FORMATS: readonly { magic: string; what: string }[] = [
  { magic: "PAR1", what: "a Parquet file (it starts with the bytes PAR1), not text" },
  { magic: "SQLite format 3\0", what: "an SQLite database (a same-game record?), not text" },
  { magic: "PK\x03\x04", what: "a ZIP archive (an .xlsx workbook is one), not text" },
  { magic: "\x1f\x8b", what: "gzip-compressed, not text (decompress it first)" },
];

export interface ImportFileOptions {
  /** The file as messages name it. */
  shown?: string;
  maxBytes?: number;
  /** What the command reads, said when the file is a binary format instead. */
  reads?: string;
}

/**
 * The text of a file to import: read as a stream (a pipe such as `<(…)` works) up to `maxBytes`, then
 * required to be UTF-8 without a NUL byte — both refused with the line they are on, since a replaced
 * character or a NUL (which PostgreSQL cannot store) would make the record differ from the file. A leading
 * byte-order mark is dropped so every import format accepts it.
 */
export function readImportFile(path: string, options: ImportFileOptions = {}): string {
  const { shown = path, maxBytes = MAX_IMPORT_BYTES, reads = IMPORT_FORMATS } = options;
  const bytes = readCapped(path, shown, maxBytes);
  const binary = BINARY_FORMATS.find(({ magic }) =>
    bytes.subarray(0, magic.length).equals(Buffer.from(magic, "latin1")),
  );
  if (binary !== undefined) throw new UsageError(`${shown}: ${binary.what}; ${reads}.`);
  const nul = bytes.indexOf(0);
  if (nul !== -1) {
    throw new UsageError(
      `${shown}: line ${lineOf(bytes, nul)}: a NUL byte (U+0000), which the record cannot store; remove it and import again.`,
    );
  }
  if (!isUtf8(bytes)) {
    throw new UsageError(
      `${shown}: line ${firstLineNotUtf8(bytes)}: not valid UTF-8; save the file as UTF-8 and import again.`,
    );
  }
  return bytes.toString("utf8").replace(/^\uFEFF/, "");
}

function readCapped(path: string, shown: string, maxBytes: number): Buffer {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`Cannot read ${shown}${code ? ` (${code})` : ""}.`);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for (;;) {
      const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
      const read = readSync(fd, chunk, 0, CHUNK_BYTES, null);
      if (read === 0) break;
      total += read;
      if (total > maxBytes) {
        throw new UsageError(
          `${shown}: larger than ${maxBytes / (1024 * 1024)} MiB, the most an import reads; split it into smaller files (or is it a device that never ends?).`,
        );
      }
      chunks.push(chunk.subarray(0, read));
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`Cannot read ${shown}${code ? ` (${code})` : ""}.`);
  } finally {
    closeSync(fd);
  }
  return Buffer.concat(chunks, total);
}

/** The 1-based line holding byte `offset`. */
function lineOf(bytes: Buffer, offset: number): number {
  let line = 1;
  for (let at = bytes.indexOf(10); at !== -1 && at < offset; at = bytes.indexOf(10, at + 1)) line += 1;
  return line;
}

/** The first line that is not UTF-8 on its own (a newline byte never occurs inside a UTF-8 sequence). */
function firstLineNotUtf8(bytes: Buffer): number {
  let line = 1;
  let start = 0;
  for (;;) {
    const end = bytes.indexOf(10, start);
    if (!isUtf8(bytes.subarray(start, end === -1 ? bytes.length : end))) return line;
    if (end === -1) return line;
    start = end + 1;
    line += 1;
  }
}
