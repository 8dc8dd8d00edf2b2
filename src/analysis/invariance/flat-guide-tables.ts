// The guide tables one unit's two-action hypergeometric draws use (invariance-permutation.ts), copied into
// flat arrays as each is first needed and found by a slot number: a draw then reads a few numbers from
// arrays that sit together in memory, instead of following a table object to its own two arrays.

import type { GuideTable } from "../sampling/guide-table.js";

/** Per table: where its CDF starts in `cdfs`, where its guide starts in `guides`, the guide's size, its lowest value. */
const INFO = 4;

export class FlatGuideTables {
  /** Every table's CDF, one after another. */
  cdfs = new Float64Array(256);
  /** Every table's guide, one after another. */
  guides = new Int32Array(1024);
  /** Table t's INFO numbers at info[t·INFO ..]. */
  info = new Int32Array(64 * INFO);
  /** The table of each slot (−1: none yet). */
  readonly table: Int32Array;
  private tables = 0;
  private cdfUsed = 0;
  private guideUsed = 0;

  constructor(slots: number) {
    this.table = new Int32Array(slots).fill(-1);
  }

  /** Places `table` as the slot's table, copying it in; returns its number. */
  place(slot: number, table: GuideTable): number {
    const t = this.tables++;
    if ((t + 1) * INFO > this.info.length) this.info = grown(this.info, (t + 1) * INFO);
    if (this.cdfUsed + table.cdf.length > this.cdfs.length) {
      this.cdfs = grown(this.cdfs, this.cdfUsed + table.cdf.length);
    }
    if (this.guideUsed + table.guide.length > this.guides.length) {
      this.guides = grown(this.guides, this.guideUsed + table.guide.length);
    }
    this.cdfs.set(table.cdf, this.cdfUsed);
    this.guides.set(table.guide, this.guideUsed);
    this.info[t * INFO] = this.cdfUsed;
    this.info[t * INFO + 1] = this.guideUsed;
    this.info[t * INFO + 2] = table.guide.length;
    this.info[t * INFO + 3] = table.lo;
    this.cdfUsed += table.cdf.length;
    this.guideUsed += table.guide.length;
    this.table[slot] = t;
    return t;
  }
}

/** A copy of `array` with room for at least `needed` numbers (doubling). */
function grown<T extends Float64Array | Int32Array>(array: T, needed: number): T {
  let size = array.length * 2;
  while (size < needed) size *= 2;
  const copy = new (array.constructor as new (size: number) => T)(size);
  copy.set(array);
  return copy;
}
