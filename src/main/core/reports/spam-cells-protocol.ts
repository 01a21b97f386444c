import type { ScopedTimelineFilter } from '../ledger/index.ts';

/**
 * What the export (spam-cells.ts) and its spam judge's thread (spam-cells-worker.ts) say to each
 * other: a module of its own, so the worker's bundle (out/main/csv-spam.js) holds none of the
 * export's side.
 */
export interface SpamWorkerData {
  path: string;
  /** An encrypted cache's key as hex (workerData only: never in a message). */
  key: string | null;
  filter: ScopedTimelineFilter;
  batch: number;
  ahead: number;
  /** Int32 [0]: the row the export has reached (the worker waits when too far ahead). */
  progress: SharedArrayBuffer;
  /** Int32 [0]: the snapshot's hand-over (GATE_*). */
  gate: SharedArrayBuffer;
}

/** The hand-over of the snapshot: the worker waits; take it (writers are held off); taken; give up. */
export const GATE_WAIT = 0;
export const GATE_TAKE = 1;
export const GATE_TAKEN = 2;
export const GATE_ABANDON = 3;

/**
 * What the worker says: it has loaded and opened the file (and waits at the gate); its snapshot
 * holds `rows` rows to export; a batch (rows before `upTo` judged, the cells that are not empty,
 * the identity of the last row); or that it failed.
 */
export type FromSpamWorker =
  | { kind: 'loaded' }
  | { kind: 'ready'; rows: number }
  | { kind: 'cells'; upTo: number; last: string | null; cells: Array<[number, string]> }
  | { kind: 'failed'; message: string };
