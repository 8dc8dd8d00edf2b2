// A permutation stream passed over and continued on another thread (permutation-replicates.ts): saved at
// any point, restored, or moved on without reading, it gives the very numbers the stream itself gives.
import { describe, expect, it } from "vitest";
import { BufferedUniforms, createBootstrapRng } from "../../src/analysis/sampling/fast-rng.js";

/** The next `count` numbers of a stream. */
function read(stream: { next(): number }, count: number): number[] {
  return Array.from({ length: count }, () => stream.next());
}

describe("a buffered stream saved, skipped over and continued", () => {
  // Reads and skips that stop inside a block of 16, at its end, and run over several blocks.
  for (const [before, skipped] of [
    [0, 0],
    [5, 3],
    [16, 16],
    [7, 41],
    [3, 13],
  ] as const) {
    it(`after ${before} read and ${skipped} skipped: the numbers the stream gives after reading them all`, () => {
      const reference = new BufferedUniforms(createBootstrapRng("resume"), 16);
      const expected = read(reference, before + skipped + 40).slice(before + skipped);

      const stream = new BufferedUniforms(createBootstrapRng("resume"), 16);
      read(stream, before);
      const state = new Int32Array(5);
      stream.save(state, 0);
      stream.skip(skipped);
      // The stream itself goes on after the skipped numbers ...
      expect(read(stream, 40)).toEqual(expected);
      // ... and the saved state, continued elsewhere, gives what it skipped, then the same numbers.
      const resumed = BufferedUniforms.at(state, 0, 16);
      read(resumed, skipped);
      expect(read(resumed, 40)).toEqual(expected);
    });
  }
});
