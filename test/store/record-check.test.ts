import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FULL_INTEGRITY_CHECK_MAX_BYTES, integrityCheck } from "../../src/store/record-file.js";
import { Store } from "../../src/store/store.js";

// The report's record check: SQLite's full integrity_check on a record up to the size limit, quick_check
// above it (the full check matches every index entry against its table row, which at a million decisions
// costs more than the rest of the report's verification).

const dir = mkdtempSync(join(tmpdir(), "same-game-record-check-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("integrityCheck", () => {
  const store = new Store(join(dir, "record.db"));
  const pages = Number(store.db.pragma("page_count", { simple: true }));
  const pageSize = Number(store.db.pragma("page_size", { simple: true }));

  it("runs the full integrity_check on a record at or below the limit, and gives its size", () => {
    expect(pages * pageSize).toBeLessThan(FULL_INTEGRITY_CHECK_MAX_BYTES);
    expect(integrityCheck(store.db)).toEqual({
      pragma: "integrity_check",
      result: "ok",
      bytes: pages * pageSize,
    });
    // Exactly at the limit is still the full check.
    expect(integrityCheck(store.db, pages * pageSize).pragma).toBe("integrity_check");
    expect(store.integrityCheck().pragma).toBe("integrity_check");
  });

  it("runs quick_check on a record one byte above the limit", () => {
    expect(integrityCheck(store.db, pages * pageSize - 1)).toEqual({
      pragma: "quick_check",
      result: "ok",
      bytes: pages * pageSize,
    });
  });
});
