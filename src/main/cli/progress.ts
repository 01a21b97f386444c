import type { ConversionCount, JobInfo } from '../../shared/model.ts';
import { syncRateText } from '../../shared/progress-text.ts';
import { forTerminal } from '../../shared/text-safety.ts';
import type { OutStream } from './io.ts';

/**
 * A progress bar on a terminal (stderr), one line redrawn in place; nothing when stderr is
 * not a TTY, so scripts and logs stay clean.
 */
export function progressPrinter(stream: OutStream): { update(info: JobInfo): void; done(): void } {
  if (!stream.isTTY) return { update: () => undefined, done: () => undefined };
  let drawn = false;
  return {
    update(info) {
      const width = 28;
      const known = info.total !== null && info.total > 0;
      const ratio = known ? Math.min(1, info.done / info.total!) : 0;
      const bar = known ? '█'.repeat(Math.round(ratio * width)).padEnd(width, '░') : '·'.repeat(width);
      const count = known ? `${info.done}/${info.total}` : `${info.done}`;
      const rate = syncRateText(info);
      const line = forTerminal(`${bar} ${count}${info.rows !== undefined ? ' rows' : ''}${rate ? ` (${rate})` : ''} ${info.label} — ${info.phase}`).slice(
        0,
        (stream.columns ?? 100) - 1,
      );
      stream.write(`\r\x1b[2K${line}`);
      drawn = true;
    },
    done() {
      if (drawn) stream.write('\r\x1b[2K');
      drawn = false;
    },
  };
}

/** A size in decimal units, for a terminal line: "812 kB", "2.4 GB"; in the unit `scale` would take (a part in its whole's). */
export function sizeText(bytes: number, scale = bytes): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let i = 0;
  while (scale >= 1000 ** (i + 1) && i < units.length - 1) i++;
  return `${(bytes / 1000 ** i).toFixed(scale / 1000 ** i < 10 && i > 0 ? 1 : 0)} ${units[i]}`;
}

/**
 * How far a conversion of the data folder is (the core's `cache.converting` events), one line
 * redrawn in place on a terminal; nothing when stderr is not a TTY, as the jobs' bar.
 */
export function conversionPrinter(stream: OutStream): { update(c: ConversionCount): void; done(): void } {
  if (!stream.isTTY) return { update: () => undefined, done: () => undefined };
  let drawn = false;
  return {
    update(c) {
      const width = 28;
      const ratio = c.bytes > 0 ? Math.min(1, c.doneBytes / c.bytes) : c.files > 0 ? c.done / c.files : 0;
      const bar = '█'.repeat(Math.round(ratio * width)).padEnd(width, '░');
      const line = `${bar} ${c.done}/${c.files} file${c.files === 1 ? '' : 's'} converted (${sizeText(c.doneBytes, c.bytes)} of ${sizeText(c.bytes)})`;
      stream.write(`\r\x1b[2K${line.slice(0, (stream.columns ?? 100) - 1)}`);
      drawn = true;
    },
    done() {
      if (drawn) stream.write('\r\x1b[2K');
      drawn = false;
    },
  };
}
