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
  // The one number formatter of every CSV export: exact, plain decimal (shared/decimal.ts).
  if (typeof value === 'number') return Number.isFinite(value) ? plainDecimal(value) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (!SPECIAL.test(value)) return value; // the common case: one test, no copy
  let text = forCsv(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Cells joined with commas, without the line end (to build a line in parts). */
export function csvFields(values: readonly Cell[]): string {
  let line = '';
  for (let i = 0; i < values.length; i++) line += (i ? ',' : '') + csvCell(values[i]);
  return line;
}

export function csvLine(values: readonly Cell[]): string {
  return csvFields(values) + '\r\n';
}

/**
 * Writes rows to a stream, respecting backpressure, in chunks, so an export of any size runs
 * in bounded memory. The UTF-8 byte order mark lets spreadsheet apps detect the encoding.
 */
export class CsvWriter {
  private buffer: string[] = [];
  private size = 0;
  rows = 0;

  constructor(
    private readonly out: Writable,
    header: readonly string[],
    options: { bom?: boolean } = {},
  ) {
    this.buffer.push((options.bom ? '\ufeff' : '') + csvLine(header));
  }

  /** Adds a row; true when the buffer is full and the caller should `await flush()`. */
  push(values: readonly Cell[]): boolean {
    return this.pushLine(csvLine(values));
  }

  /** Adds a line already formatted with csvLine; true when the buffer is full. */
  pushLine(line: string): boolean {
    this.buffer.push(line);
    this.size += line.length;
    this.rows++;
    return this.size >= 64 * 1024;
  }

  async row(values: readonly Cell[]): Promise<void> {
    if (this.push(values)) await this.flush();
  }

  async flush(): Promise<void> {
    if (!this.buffer.length) return;
    const chunk = this.buffer.join('');
    this.buffer = [];
    this.size = 0;
    if (!this.out.write(chunk, 'utf8')) await once(this.out, 'drain');
  }

  async end(): Promise<void> {
    await this.flush();
    await new Promise<void>((resolve, reject) => {
      this.out.once('error', reject);
      this.out.end(() => resolve());
    });
  }
}
