import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, expect, it } from "vitest";
import { Store } from "../../src/store/store.js";

// Opening an SQLite record scans every page (quick_check): 2–3 s at a million decisions. The server does it
// once, when it opens the record; its analysis workers open the same file again moments later and say so
// (`pagesChecked`), so each keeps the schema check but not the scan. Shown on a record whose last pages are
// damaged: the full open refuses it, the worker's open reads it.

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A current record with a filler table whose pages (the file's last) are then overwritten. */
function recordWithDamagedLastPages(): string {
  dir = mkdtempSync(join(tmpdir(), "same-game-pages-checked-"));
  const path = join(dir, "record.db");
  new Store(path).close();
  const db = new Database(path);
  db.pragma("journal_mode = DELETE");
  db.exec("CREATE TABLE filler (n INTEGER PRIMARY KEY, text TEXT)");
  const insert = db.prepare("INSERT INTO filler (text) VALUES (?)");
  db.transaction(() => {
    for (let i = 0; i < 2000; i++) insert.run("x".repeat(200));
  })();
  db.close();
  const bytes = readFileSync(path);
  const pageSize = bytes.readUInt16BE(16);
  // The filler's pages were appended last: damage the last twenty of them.
  bytes.fill(0xab, bytes.length - 20 * pageSize, bytes.length);
  writeFileSync(path, bytes);
  return path;
}

it("a worker of the server that checked the record opens it without scanning its pages again", () => {
  const path = recordWithDamagedLastPages();
  // quick_check finds the damage (or SQLite, reading a damaged page during it, calls the file malformed).
  expect(() => new Store(path, { readonly: true })).toThrow(
    /record\.db is (a damaged SQLite file \(quick_check: |not a readable same-game record \(database disk image is malformed)/,
  );
  new Store(path, { readonly: true, pagesChecked: true }).close();
});

it("a worker that skips the page scan still refuses a record written by a newer same-game", () => {
  const path = recordWithDamagedLastPages();
  const db = new Database(path);
  db.prepare(
    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, '999_future.sql', 'x')",
  ).run();
  db.close();
  expect(() => new Store(path, { readonly: true, pagesChecked: true })).toThrow(/schema version 999/);
});
