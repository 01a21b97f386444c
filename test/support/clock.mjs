// Loaded into a CLI process (NODE_OPTIONS=--import) to pin its clock: Date starts at
// FOLIOSCOPE_TEST_CLOCK (ms since the epoch) and runs on from there, so a test does not depend
// on the date it runs (the simulator's history and "today" are pinned too), while timers and
// elapsed times still pass as they do.
const start = Number(process.env.FOLIOSCOPE_TEST_CLOCK);
if (Number.isFinite(start)) {
  const RealDate = Date;
  const offset = start - RealDate.now();
  const now = () => RealDate.now() + offset;
  class PinnedDate extends RealDate {
    constructor(...args) {
      if (args.length) super(...args);
      else super(now());
    }
    static now() {
      return now();
    }
  }
  globalThis.Date = PinnedDate;
}
