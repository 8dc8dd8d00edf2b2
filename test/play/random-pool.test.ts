import { describe, expect, it } from "vitest";
import { randomHex, randomUint32 } from "../../src/play/random-pool.js";
import { newMatchId, newSeed } from "../../src/play/start-match.js";

describe("the random pool behind match ids and seeds", () => {
  it("gives 128-bit hex ids, none twice, across several refills of its 4 KiB", () => {
    // 1000 ids are 16,000 bytes: the pool is refilled three times on the way.
    const ids = Array.from({ length: 1000 }, () => newMatchId());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(1000);
    // Odd sizes too: a draw that does not fit the pool's rest comes from a fresh fill, whole.
    const mixed = Array.from({ length: 700 }, (_, i) => randomHex(1 + (i % 13)));
    expect(mixed.map((hex) => hex.length)).toEqual(mixed.map((_, i) => 2 * (1 + (i % 13))));
    const long = mixed.filter((hex) => hex.length >= 16);
    expect(new Set(long).size).toBe(long.length);
  });

  it("draws seeds uniformly from [0, 2^32)", () => {
    const draws = Array.from({ length: 10_000 }, () => randomUint32());
    for (const x of draws) expect(Number.isInteger(x) && x >= 0 && x < 2 ** 32).toBe(true);
    // The mean of 10,000 uniform draws is 0.5 (of 2^32) within ±0.02 (seven standard deviations).
    const mean = draws.reduce((sum, x) => sum + x, 0) / draws.length / 2 ** 32;
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.02);
    expect(newSeed()).toMatch(/^\d{1,10}$/);
  });
});
