import type { JobInfo } from '../../shared/model.ts';
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
