import { grown } from "./grown-array.js";

/**
 * Distinct sequences of non-negative integers, numbered in the order first added, with how many times
 * each was added: the whole-session types of a player whose sessions span cells (each session a sequence
 * of (cell, content) pairs). Held in growable typed arrays and found by an open-addressing hash over the
 * integers, where a map keyed by a text per session kept a string, a map entry and an array of objects
 * per session alive until the player's last session was in: at a million decisions the calling thread's
 * heap filled with them faster than the collector emptied it.
 */
export class SequenceTable {
  /** The distinct sequences' integers, one after another; sequence t is values[starts[t] .. starts[t + 1]). */
  private values = new Int32Array(1024);
  private starts = new Int32Array(257);
  private counts = new Float64Array(256);
  /** Slot → sequence number + 1 (0: empty), a power of two at most half full. */
  private slots = new Int32Array(512);
  private hashes = new Int32Array(256);
  /** How many distinct sequences. */
  size = 0;

  /** Counts one sequence (of `length` integers from `sequence`), numbering it when first seen. */
  add(sequence: ArrayLike<number>, length: number): void {
    const hash = hashOf(sequence, length);
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const held = this.slots[slot] as number;
      if (held === 0) break;
      const t = held - 1;
      if (this.hashes[t] === hash && this.equals(t, sequence, length)) {
        this.counts[t] = (this.counts[t] as number) + 1;
        return;
      }
    }
    const t = this.size;
    this.reserve(length);
    const from = this.starts[t] as number;
    for (let i = 0; i < length; i++) this.values[from + i] = sequence[i] as number;
    this.starts[t + 1] = from + length;
    this.counts[t] = 1;
    this.hashes[t] = hash;
    this.size++;
    if (2 * this.size > this.slots.length) this.rehash(2 * this.slots.length);
    else this.place(t, hash);
  }

  /** How many times sequence t was added. */
  count(t: number): number {
    return this.counts[t] as number;
  }

  /** Sequence t's integers (a view, valid until the next `add`). */
  sequence(t: number): Int32Array {
    return this.values.subarray(this.starts[t] as number, this.starts[t + 1] as number);
  }

  private equals(t: number, sequence: ArrayLike<number>, length: number): boolean {
    const from = this.starts[t] as number;
    if ((this.starts[t + 1] as number) - from !== length) return false;
    for (let i = 0; i < length; i++) if (this.values[from + i] !== sequence[i]) return false;
    return true;
  }

  /** Room for one more sequence of `length` integers. */
  private reserve(length: number): void {
    const end = (this.starts[this.size] as number) + length;
    if (end > this.values.length) this.values = grown(this.values, Math.max(end, 2 * this.values.length));
    const capacity = this.counts.length;
    if (this.size + 1 > capacity) {
      this.starts = grown(this.starts, 2 * capacity + 1);
      this.counts = grown(this.counts, 2 * capacity);
      this.hashes = grown(this.hashes, 2 * capacity);
    }
  }

  private place(t: number, hash: number): void {
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
    this.slots[slot] = t + 1;
  }

  private rehash(size: number): void {
    this.slots = new Int32Array(size);
    for (let t = 0; t < this.size; t++) this.place(t, this.hashes[t] as number);
  }
}

/** FNV-1a over the integers (each mixed in whole), then a final avalanche so that nearby sequences spread. */
function hashOf(sequence: ArrayLike<number>, length: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < length; i++) h = Math.imul(h ^ (sequence[i] as number), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h | 0;
}
