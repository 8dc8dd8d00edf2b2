import { randomFillSync } from "node:crypto";

// Match ids and ad-hoc seeds are drawn on every start_match. Asking the CSPRNG for 16 bytes at a time costs a
// Buffer and a call into OpenSSL each (some 10 µs); this pool asks for 4 KiB at once and hands each byte out
// exactly once, as Node's own randomUUID does with its entropy cache. The bytes are the same CSPRNG's.

const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let used = POOL_BYTES;

/** Reserves the next `n` unused bytes of the pool (refilled when it runs out) and returns where they start. */
function take(n: number): number {
  if (n > POOL_BYTES) throw new RangeError(`random pool: ${n} bytes asked, at most ${POOL_BYTES}`);
  if (used + n > POOL_BYTES) {
    randomFillSync(pool);
    used = 0;
  }
  const start = used;
  used += n;
  return start;
}

/** `bytes` random bytes as lowercase hex (2 × bytes characters). */
export function randomHex(bytes: number): string {
  const start = take(bytes);
  return pool.toString("hex", start, start + bytes);
}

/** A uniform random integer in [0, 2³²). */
export function randomUint32(): number {
  return pool.readUInt32BE(take(4));
}
