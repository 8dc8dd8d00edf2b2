import { isUtf8 } from "node:buffer";
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
} from "node:fs";
import { join, sep } from "node:path";
import type { CatalogFileText } from "./certification-cache.js";

/** Far above any game or framing file (the largest shipped one is a few KB); a larger file is not one. */
const MAX_CATALOG_FILE_BYTES = 4 * 1024 * 1024;

/**
 * The `*.json` files of a catalog folder, sorted by name. Only regular files inside the folder are read:
 * a FIFO would block every verb, a symlink could lead anywhere (and a parse error would echo what it found
 * there), so either is refused with its path — as is a folder named `x.json`. Errors are plain Errors
 * naming the path; the catalog loader turns them into one-sentence CatalogErrors.
 */
export function readJsonFiles(dir: string, where: string): CatalogFileText[] {
  const root = realpathSync(dir);
  return readdirSync(dir)
    .filter((file) => file.endsWith(".json"))
    .sort()
    .map((file) => ({
      source: `${where}/${file}`,
      name: file.slice(0, -".json".length),
      text: readCatalogFile(join(dir, file), root),
    }));
}

/** Whether `dir` holds a sub-folder `name` of its own (not a symlink to one elsewhere); refused if odd. */
export function hasSubfolder(dir: string, name: string): boolean {
  const path = join(dir, name);
  let kind: string;
  try {
    const stat = lstatSync(path);
    if (stat.isDirectory()) return true;
    kind = describe(stat);
  } catch {
    return false;
  }
  throw new Error(`${path} is ${kind}, not a folder of the catalog; make it a folder or remove it.`);
}

function readCatalogFile(path: string, root: string): string {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) {
    const target = safeRealpath(path);
    if (target === null || !target.startsWith(root + sep)) {
      throw new Error(
        `${path} is a symbolic link out of the catalog folder; only files inside the folder are read (copy the file in instead).`,
      );
    }
  }
  // O_NONBLOCK: opening a FIFO does not wait for a writer; fstat then says what was opened.
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const opened = fstatSync(fd);
    if (!opened.isFile()) {
      throw new Error(`${path} is ${describe(opened)}, not a regular file; a catalog holds JSON files only.`);
    }
    if (opened.size > MAX_CATALOG_FILE_BYTES) {
      throw new Error(
        `${path} holds ${opened.size} bytes, more than a game or framing file may (${MAX_CATALOG_FILE_BYTES}).`,
      );
    }
    const bytes = Buffer.alloc(opened.size);
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(fd, bytes, read, bytes.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return utf8Text(bytes.subarray(0, read), path);
  } finally {
    closeSync(fd);
  }
}

/**
 * The file's text, refused unless it is UTF-8: a lenient decoding would put replacement characters into
 * labels and stories, and so into the prompts the agent reads.
 */
function utf8Text(bytes: Buffer, path: string): string {
  const offset = isUtf8(bytes) ? null : firstInvalidUtf8Byte(bytes);
  if (offset !== null) {
    throw new Error(
      `${path} is not UTF-8 text (byte offset ${offset}: 0x${(bytes[offset] as number).toString(16).padStart(2, "0")}); save it as UTF-8.`,
    );
  }
  return bytes.toString("utf8");
}

/** The offset where the first ill-formed UTF-8 sequence starts (its lead byte), or null. */
export function firstInvalidUtf8Byte(bytes: Uint8Array): number | null {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i] as number;
    if (lead < 0x80) {
      i++;
      continue;
    }
    // The length of the sequence and the range of its second byte (which rules out overlong forms,
    // surrogates and code points above U+10FFFF), as in the Unicode standard's table 3-7.
    const [length, low, high] =
      lead >= 0xc2 && lead <= 0xdf
        ? [2, 0x80, 0xbf]
        : lead === 0xe0
          ? [3, 0xa0, 0xbf]
          : lead === 0xed
            ? [3, 0x80, 0x9f]
            : lead >= 0xe1 && lead <= 0xef
              ? [3, 0x80, 0xbf]
              : lead === 0xf0
                ? [4, 0x90, 0xbf]
                : lead === 0xf4
                  ? [4, 0x80, 0x8f]
                  : lead >= 0xf1 && lead <= 0xf3
                    ? [4, 0x80, 0xbf]
                    : [0, 0, 0];
    if (length === 0) return i;
    for (let k = 1; k < length; k++) {
      const byte = bytes[i + k];
      const [min, max] = k === 1 ? [low, high] : [0x80, 0xbf];
      if (byte === undefined || byte < min || byte > max) return i;
    }
    i += length;
  }
  return null;
}

function safeRealpath(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

function describe(stat: {
  isFile(): boolean;
  isDirectory(): boolean;
  isFIFO(): boolean;
  isSymbolicLink(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
}): string {
  if (stat.isFile()) return "a file";
  if (stat.isDirectory()) return "a folder";
  if (stat.isFIFO()) return "a FIFO (named pipe)";
  if (stat.isSymbolicLink()) return "a symbolic link";
  if (stat.isSocket()) return "a socket";
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return "a device";
  return "something other than a file";
}
