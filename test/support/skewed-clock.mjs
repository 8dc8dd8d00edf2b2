// The clock under test, as libfaketime would set it: a process started with
// `node --import ./test/support/skewed-clock.mjs` sees its wall clock (Date.now(), new Date()) off by
// SAME_GAME_CLOCK_OFFSET_MS milliseconds (e.g. 300000: five minutes ahead of the database and the other
// processes). The monotonic clock (performance.now(), process.hrtime) is left alone, as a skewed or
// stepped wall clock leaves it. Nothing else of the process is touched.
const offset = Number(process.env.SAME_GAME_CLOCK_OFFSET_MS ?? 0);
if (offset !== 0) {
  const RealDate = Date;
  const realNow = RealDate.now.bind(RealDate);
  class SkewedDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(realNow() + offset);
      else super(...args);
    }
    static now() {
      return realNow() + offset;
    }
  }
  globalThis.Date = SkewedDate;
}
