/**
 * RFC 4180 CSV: CRLF line ends, fields quoted when they hold a quote, comma, CR or LF, quotes
 * doubled. Numbers are machine-readable (no thousands separators, full precision); text that
 * a spreadsheet would run as a formula (starting with =, +, -, @, tab or CR) is neutralised
 * with a leading apostrophe. Dates are ISO 8601 UTC text.
 */

import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { forCsv } from '../../../shared/text-safety.ts';
import { plainDecimal } from '../../../shared/decimal.ts';

export type Cell = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;
/**
 * Anything that needs work: a formula start, a character that needs quoting, or one that
 * could reorder or hide neighbouring text (shared/text-safety.ts), shown as a visible escape.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const SPECIAL = /^[=+\-@\t\r]|[",\r\n\u0000-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufff9-\ufffb]/;

export function csvCell(value: Cell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return csvNumber(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return csvText(value);
}

/**
 * A number's cell: plainDecimal (shared/decimal.ts), the one number formatter of every CSV
 * export (exact, plain decimal), empty for NaN and Infinity. Numbers of at most 9 decimals and
 * 15 digits (most fees, prices and balances) take a shorter way to the same text: when
 * m = round(v × 10⁹) gives back v as m / 10⁹, the decimal m × 10⁻⁹ reads as v, and a decimal of
 * at most 15 digits that reads as v is the shortest one that does (DBL_DIG), which is what
 * plainDecimal writes. String() of a fraction is slow, and ran twice per exported transaction
 * (bench/RESULTS.md, "CSV export pace").
 * test/reports/csv-transfers.test.ts compares the two on a million doubles.
 */
export function csvNumber(v: number): string {
  if (Number.isInteger(v)) return Math.abs(v) < 1e21 ? String(v) : plainDecimal(v); // String(-0) is "0", as plainDecimal's
  const m = Math.round(v * 1e9);
  if (Math.abs(m) < 1e15 && m / 1e9 === v) {
    const a = Math.abs(m);
    const fraction = a % 1e9; // exact: integers below 2^53
    let digits = String(fraction).padStart(9, '0');
    let end = 9;
    while (digits.charCodeAt(end - 1) === 48) end--;
    digits = digits.slice(0, end);
    return `${m < 0 ? '-' : ''}${(a - fraction) / 1e9}.${digits}`;
  }
  return Number.isFinite(v) ? plainDecimal(v) : '';
}

/** Whether csvCell has anything to do to a string (else it is its own cell). */
export function needsCsvWork(value: string): boolean {
  return SPECIAL.test(value);
}

/** csvCell of a string. */
export function csvText(value: string): string {
  if (!SPECIAL.test(value)) return value; // the common case: one test, no copy
  let text = forCsv(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Cells joined with commas, without the line end (to build a line in parts). */
function csvFields(values: readonly Cell[]): string {
  let line = '';
  for (let i = 0; i < values.length; i++) line += (i ? ',' : '') + csvCell(values[i]);
  return line;
}

export function csvLine(values: readonly Cell[]): string {
  return csvFields(values) + '\r\n';
}

/**
 * Bytes gathered before a write: large enough that a write's own cost (a call into the
 * stream, an event-loop turn when the stream is full) is spread over thousands of lines,
 * small enough that memory stays bounded whatever the export's size.
 */
const CHUNK_BYTES = 1024 * 1024;

/**
 * Writes rows to a stream, respecting backpressure, in chunks, so an export of any size runs
 * in bounded memory. The UTF-8 byte order mark lets spreadsheet apps detect the encoding.
 * Lines are encoded into a byte chunk as they come (one small string at a time, while it is
 * fresh), not kept as strings to be joined: a chunk of a million-row export held as strings
 * cost more to flatten and encode than to build (bench/reports.ts).
 */
export class CsvWriter {
  private chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  private used = 0;
  /** Chunks filled and not yet handed to the stream (at most one or two: callers flush when told). */
  private full: Buffer[] = [];
  rows = 0;

  constructor(
    private readonly out: Writable,
    header: readonly string[],
    options: { bom?: boolean } = {},
  ) {
    this.append((options.bom ? '\ufeff' : '') + csvLine(header));
  }

  /** Adds a row; true when the buffer is full and the caller should `await flush()`. */
  push(values: readonly Cell[]): boolean {
    return this.pushLine(csvLine(values));
  }

  /** Adds a line already formatted with csvLine; true when the buffer is full. */
  pushLine(line: string): boolean {
    this.rows++;
    return this.append(line);
  }

  /** Adds `count` lines already joined into one string; true when the buffer is full. */
  pushLines(lines: string, count: number): boolean {
    this.rows += count;
    return this.append(lines);
  }

  private append(text: string): boolean {
    // UTF-8 takes at most 3 bytes per UTF-16 unit (a surrogate pair: 4 bytes for 2 units).
    if (text.length * 3 > this.chunk.length - this.used) {
      this.seal();
      if (text.length * 3 > this.chunk.length) {
        this.full.push(Buffer.from(text, 'utf8'));
        return true;
      }
    }
    this.used += this.chunk.write(text, this.used, 'utf8');
    return this.full.length > 0;
  }

  /** Hands the current chunk to the queue of full ones and starts another (the stream keeps the old one until written). */
  private seal(): void {
    if (!this.used) return;
    this.full.push(this.chunk.subarray(0, this.used));
    this.chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    this.used = 0;
  }

  async row(values: readonly Cell[]): Promise<void> {
    if (this.push(values)) await this.flush();
  }

  /** Writes the full chunks, waiting while the stream's buffer is over its mark. */
  async flush(): Promise<void> {
    for (let b = this.full.shift(); b; b = this.full.shift()) if (!this.out.write(b)) await once(this.out, 'drain');
  }

  async end(): Promise<void> {
    this.seal();
    await this.flush();
    // end()'s callback is also called with the stream's error (the last write's full disk):
    // that error fails the export instead of being dropped.
    await new Promise<void>((resolve, reject) => {
      this.out.once('error', reject);
      this.out.end((err?: Error | null) => (err ? reject(err) : resolve()));
    });
  }
}
