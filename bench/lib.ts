import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import os from 'node:os';

export const DATA_DIR = join(import.meta.dirname, '.data');
mkdirSync(DATA_DIR, { recursive: true });

export function percentile(sorted: readonly number[], p: number): number {
  if (!sorted.length) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

/** Times `fn` `runs` times (after `warmup`), returning sorted milliseconds. */
export function timeRuns(runs: number, fn: (i: number) => void, warmup = 5): number[] {
  for (let i = 0; i < warmup; i++) fn(i);
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn(i);
    out.push(performance.now() - t);
  }
  return out.sort((a, b) => a - b);
}

export function machine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return `${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}, ${os.platform()} ${os.release()}`;
}

export function report(title: string, rows: Array<[string, string]>): void {
  console.log(`\n## ${title}`);
  const width = Math.max(...rows.map(([k]) => k.length));
  for (const [k, v] of rows) console.log(`  ${k.padEnd(width)}  ${v}`);
}

export const fmt = (n: number, digits = 2) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
