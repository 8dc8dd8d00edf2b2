// The clock under test, as libfaketime would set it: a process started with
// `node --import ./test/support/skewed-clock.mjs` sees its wall clock (Date.now(), new Date()) off by
// SAME_GAME_CLOCK_OFFSET_MS milliseconds (e.g. 300000: five minutes ahead of the database and the other
// processes). With SAME_GAME_CLOCK_JUMP_MS set, each SIGUSR2 moves it on by that much at once, as a
// machine waking from sleep (or an NTP step) sees it. The monotonic clock (performance.now(),
// process.hrtime) and the timers are left alone, as a skewed, stepped or slept wall clock leaves them.
// Nothing else of the process is touched.
let offset = Number(process.env.SAME_GAME_CLOCK_OFFSET_MS ?? 0);
const jump = Number(process.env.SAME_GAME_CLOCK_JUMP_MS ?? 0);
if (offset !== 0 || jump !== 0) {
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
  if (jump !== 0) {
    process.on("SIGUSR2", () => {
      offset += jump;
    });
  }
}
