/**
 * Child of the timeline benchmark: the sync-while-reading run of whileSyncing (timeline.ts) in
 * a process of its own, as the app's syncing process is: it opens the existing 1M-row cache
 * and has built nothing and timed nothing before. Reads the pages (JSON) on stdin; prints its
 * figures as one JSON line.
 */
import { text } from 'node:stream/consumers';
import type { TimelineQuery } from '../src/shared/contract.ts';
import { percentile } from './lib.ts';
import { syncWhileReading } from './timeline.ts';

const pages = JSON.parse(await text(process.stdin)) as Array<[string, TimelineQuery]>;
const { run, latencies } = await syncWhileReading(pages, 'timeline-1m-syncing-alone.sqlite');
console.log(JSON.stringify({ peakRssMiB: run.peakRssMiB, p95: percentile(latencies, 95), seconds: run.ms / 1000 }));
