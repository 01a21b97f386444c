/**
 * `npm run bench [-- name...]`: runs the benchmarks and prints their figures. They are
 * measurements, not tests: nothing here fails on a slow machine.
 */
import { ingestBench } from './ingest.ts';
import { machine } from './lib.ts';
import { syncBench } from './sync.ts';
import { timelineBench } from './timeline.ts';
import { timelineUiBench } from './timeline-ui.ts';
import { csvBench, pdfBench } from './reports.ts';
import { webBench } from './web.ts';
import { reconcileBench } from './reconcile.ts';
import { whaleBench } from './whale.ts';

const benches: Record<string, () => Promise<void>> = {
  ingest: () => ingestBench(),
  timeline: () => timelineBench(),
  'timeline-ui': () => timelineUiBench(),
  csv: () => csvBench(),
  pdf: () => pdfBench(),
  web: () => webBench(),
  reconcile: () => reconcileBench(),
  whale: () => whaleBench(),
  // 100 ms is a remote service's usual round trip; 25 ms shows where our own CPU starts to show.
  sync: async () => {
    await syncBench(100);
    await syncBench(25);
  },
};

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const unknown = wanted.filter((w) => !(w in benches));
if (unknown.length) {
  console.error(`Unknown benchmark(s): ${unknown.join(', ')}. Known: ${Object.keys(benches).join(', ')}`);
  process.exit(2);
}
console.log(`# Folioscope benchmarks\n  machine: ${machine()}`);
for (const name of wanted.length ? wanted : Object.keys(benches)) await benches[name]!();
