import { readFileSync } from "node:fs";

/**
 * The commits in a SQLite record's write-ahead log so far: frames whose header names the database size
 * after a commit (non-zero), counted while their salts match the log's header (later frames are left over
 * from before the log was last restarted).
 */
export function walCommits(dbPath: string): { commits: number; frames: number } {
  let wal: Buffer;
  try {
    wal = readFileSync(`${dbPath}-wal`);
  } catch {
    return { commits: 0, frames: 0 };
  }
  if (wal.length < 32) return { commits: 0, frames: 0 };
  const pageSize = wal.readUInt32BE(8);
  const salts = [wal.readUInt32BE(16), wal.readUInt32BE(20)];
  let commits = 0;
  let frames = 0;
  for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) {
    if (wal.readUInt32BE(at + 8) !== salts[0] || wal.readUInt32BE(at + 12) !== salts[1]) break;
    frames += 1;
    if (wal.readUInt32BE(at + 4) !== 0) commits += 1;
  }
  return { commits, frames };
}
