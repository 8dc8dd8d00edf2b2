import { randomBytes } from "node:crypto";
import { accessSync, constants, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

// Whether same-game can keep files in a folder, said in words a user can act on. Node's own errors name
// the wrong thing: a recursive mkdir under a read-only mount reports ENOENT for the folder it could not
// create, not the read-only folder above it.

/**
 * Creates `dir` (with its parents) and, with `probe`, writes and removes a file in it. Null when that
 * worked; else why not, naming the folder at fault ("/x is on a read-only file system").
 */
export function unwritableFolderReason(dir: string, options: { probe?: boolean } = {}): string | null {
  try {
    mkdirSync(dir, { recursive: true });
    if (options.probe) {
      const probe = join(dir, `.write-check-${randomBytes(4).toString("hex")}`);
      writeFileSync(probe, "");
      rmSync(probe, { force: true });
    }
    return null;
  } catch (error) {
    return whyNotWritable(dir, error as NodeJS.ErrnoException);
  }
}

function whyNotWritable(dir: string, error: NodeJS.ErrnoException): string {
  // The nearest part of the path that exists is the one that refused.
  let existing = dir;
  while (!exists(existing) && dirname(existing) !== existing) existing = dirname(existing);
  if (!isFolder(existing)) return `${existing} is a file, not a folder`;
  try {
    accessSync(existing, constants.W_OK);
  } catch (denied) {
    const code = (denied as NodeJS.ErrnoException).code;
    if (code === "EROFS") return `${existing} is on a read-only file system`;
    return `${existing} is not writable by this user`;
  }
  if (error.code === "EROFS") return `${existing} is on a read-only file system`;
  return `${dir} cannot be written (${error.code ?? error.message})`;
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
