import { afterEach, describe, expect, it, vi } from "vitest";
import {
  type ClockReading,
  FAILED_READ_RETRY_MS,
  RECORD_CLOCK_RESYNC_MS,
  RecordClock,
} from "../../src/store/record-clock.js";
import { Store } from "../../src/store/store.js";
import { tempDeps } from "../support/harness.js";
import { describeOnPostgres } from "../support/postgres.js";

// The record's clock: what every replica and runner stamps and compares shared times by. The wall clock
// of this process is the clock under test here (vitest's fake Date, as libfaketime would set it); the
// monotonic clock (performance.now) and the database's are left as they are.

afterEach(() => vi.useRealTimers());

/** A source clock 1,000,000 ms ahead of the epoch's start of this test, counting how often it is read. */
function countedSource(): { read: () => ClockReading; reads: () => number } {
  let reads = 0;
  const origin = performance.now();
  return {
    read: () => {
      reads += 1;
      const before = performance.now();
      return { at: 1_000_000 + (before - origin), before, after: before };
    },
    reads: () => reads,
  };
}

describe("the record clock", () => {
  it("reads its source once, then carries it forward by the monotonic clock until the resync", () => {
    const source = countedSource();
    const clock = new RecordClock(source.read);
    const first = clock.now();
    expect(first).toBeGreaterThanOrEqual(1_000_000);
    expect(first).toBeLessThan(1_000_100);
    for (let i = 0; i < 100; i++) clock.now();
    expect(source.reads()).toBe(1);
    // Whole milliseconds, as Date.now() gives and the record's integer columns hold.
    expect(Number.isInteger(clock.now())).toBe(true);
  });

  it("asks its source again when the wall clock steps (NTP, a suspend), and is not moved by the step", () => {
    const source = countedSource();
    const clock = new RecordClock(source.read);
    const before = clock.now();
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() - 10 * 60_000 });
    const afterBack = clock.now();
    expect(source.reads()).toBe(2);
    expect(afterBack - before).toBeGreaterThanOrEqual(0);
    expect(afterBack - before).toBeLessThan(1_000);
    vi.setSystemTime(Date.now() + 70 * 60_000);
    const afterForward = clock.now();
    expect(source.reads()).toBe(3);
    expect(afterForward - afterBack).toBeLessThan(1_000);
  });

  it("reads its source again after RECORD_CLOCK_RESYNC_MS", () => {
    const source = countedSource();
    const clock = new RecordClock(source.read, 20);
    clock.now();
    const until = performance.now() + 30;
    while (performance.now() < until) {
      // a busy wait of 30 ms on the monotonic clock, with the wall clock moving alongside
    }
    clock.now();
    expect(source.reads()).toBe(2);
    expect(RECORD_CLOCK_RESYNC_MS).toBe(30_000);
  });

  it("goes on by the monotonic clock when its source stops answering, and asks again only after a pause", () => {
    let reads = 0;
    let answering = true;
    const origin = performance.now();
    const clock = new RecordClock(() => {
      reads += 1;
      if (!answering) throw new Error("The record's database is unavailable for a moment.");
      const at = performance.now();
      return { at: 5_000_000 + (at - origin), before: at, after: at };
    }, 20);
    clock.now();
    answering = false;
    const until = performance.now() + 30;
    while (performance.now() < until) {
      // past the 20 ms resync: the next reading is due
    }
    const during = clock.now();
    expect(reads).toBe(2);
    // The last reading carried on by the 30-odd ms that passed, not an error.
    expect(during - 5_000_000).toBeGreaterThanOrEqual(29);
    expect(during - 5_000_000).toBeLessThan(1_000);
    for (let i = 0; i < 50; i++) clock.now();
    expect(reads).toBe(2);
    expect(FAILED_READ_RETRY_MS).toBe(5_000);
  });

  it("is this machine's wall clock on an SQLite record, which lives on one machine", () => {
    const deps = tempDeps();
    try {
      vi.useFakeTimers({ toFake: ["Date"], now: Date.UTC(2026, 2, 8, 7, 30) });
      expect(deps.store.now()).toBe(Date.UTC(2026, 2, 8, 7, 30));
      expect(deps.store.nowIso()).toBe("2026-03-08T07:30:00.000Z");
    } finally {
      deps.dispose();
    }
  });
});

describeOnPostgres("the record clock of a PostgreSQL record", () => {
  it("is the database server's, however far this process's wall clock is off", () => {
    const deps = tempDeps("postgres");
    const other = new Store(deps.dbPath);
    try {
      const real = Date.now();
      vi.useFakeTimers({ toFake: ["Date"], now: real + 60 * 60_000 });
      // The test's database runs on this machine, so its clock is the real one: a few ms apart at most.
      expect(Math.abs(deps.store.now() - real)).toBeLessThan(2_000);
      expect(Math.abs(Date.parse(deps.store.nowIso()) - real)).toBeLessThan(2_000);
      vi.setSystemTime(real - 5 * 60_000);
      expect(Math.abs(other.now() - real)).toBeLessThan(2_000);
      // Stored as ISO 8601 UTC with milliseconds and Z.
      expect(deps.store.nowIso()).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    } finally {
      other.close();
      deps.dispose();
    }
  });
});
