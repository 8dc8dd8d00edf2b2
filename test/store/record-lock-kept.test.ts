import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { afterAll, beforeAll, expect, it } from "vitest";
import { Store } from "../../src/store/store.js";
import { requireBuiltCli } from "../support/built-cli.js";

// Opening a second connection to a record this process holds already (the runner's ledger beside its
// standing, a server's analysis workers) must not open the file outside SQLite: closing that descriptor
// would drop every POSIX lock the process holds on the record (see src/store/record-file.ts).

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "same-game-lock-kept-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** This process's POSIX locks on `path`, from /proc/locks; null where there is no /proc/locks. */
function ownLocksOn(path: string): number | null {
  let text: string;
  try {
    text = readFileSync("/proc/locks", "utf8");
  } catch {
    return null;
  }
  const inode = String(statSync(path).ino);
  return text.split("\n").filter((line) => {
    const fields = line.trim().split(/\s+/);
    return fields[4] === String(process.pid) && fields[5]?.split(":")[2] === inode;
  }).length;
}

it("keeps the first connection's lock when a second Store opens the same record", () => {
  const path = join(dir, "two-stores.db");
  const first = new Store(path);
  try {
    const before = ownLocksOn(path);
    if (before === null) {
      console.log("no /proc/locks here (not Linux): the lock is not inspected");
      return;
    }
    expect(before).toBeGreaterThan(0);
    new Store(path, { readonly: true }).close();
    expect(ownLocksOn(path)).toBe(before);
  } finally {
    first.close();
  }
});

it("still refuses a garbage file a connection of this process was opened to before it was overwritten", () => {
  const path = join(dir, "garbage.db");
  new Store(path).close();
  // The same inode, now not a database: SQLite's own check answers in the header check's words.
  writeFileSync(path, "this is a shopping list, not a database\n".repeat(200));
  expect(() => new Store(path)).toThrow(`${path} is not a same-game record: it is not an SQLite database.`);
});

it("refuses a garbage file in a worker thread, where the header is left to SQLite", async () => {
  const path = join(dir, "garbage-in-worker.db");
  writeFileSync(path, "this is a shopping list, not a database\n".repeat(200));
  // A worker runs compiled JavaScript: the built Store.
  requireBuiltCli();
  const storeModule = new URL("../../dist/store/store.js", import.meta.url).href;
  const worker = new Worker(
    `import(${JSON.stringify(storeModule)}).then(({ Store }) => {
      try { new Store(${JSON.stringify(path)}); require("node:worker_threads").parentPort.postMessage("opened"); }
      catch (error) { require("node:worker_threads").parentPort.postMessage(error.message); }
    });`,
    { eval: true },
  );
  const message = await new Promise((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  await worker.terminate();
  expect(message).toBe(`${path} is not a same-game record: it is not an SQLite database.`);
});
