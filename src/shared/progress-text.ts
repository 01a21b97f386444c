import type { JobInfo } from './model.ts';

const english = (n: number) => Math.round(n).toLocaleString('en-US');

/** "about 2 min left", "about 40 s left"; rounded, as an estimate should read. */
export function timeLeftText(seconds: number, count: (n: number) => string = english): string {
  if (seconds < 60) return `about ${count(Math.max(1, Math.round(seconds / 5) * 5 || 1))} s left`;
  if (seconds < 3600) return `about ${count(Math.round(seconds / 60))} min left`;
  const h = Math.floor(seconds / 3600);
  return `about ${count(h)} h ${count(Math.round((seconds - h * 3600) / 60))} min left`;
}

/**
 * What a transaction sync has to tell beyond its count: pages, rate, and the time left once
 * it can be estimated (empty when the job reports none of these). `count` writes a whole
 * number: English for the CLI, the app's locale in the renderer (format.ts `integer`).
 */
export function syncRateText(info: Pick<JobInfo, 'pages' | 'rate' | 'etaSeconds'>, count: (n: number) => string = english): string {
  const parts: string[] = [];
  if (info.pages) parts.push(`${count(info.pages)} page${info.pages === 1 ? '' : 's'}`);
  if (info.rate) parts.push(`${count(info.rate)}/s`);
  if (info.etaSeconds !== undefined && info.etaSeconds !== null) parts.push(timeLeftText(info.etaSeconds, count));
  else if (info.rate) parts.push('time left unknown');
  return parts.join(' · ');
}

/** How a job's phase begins while the service refuses every request (the CLI prints such a phase as a line of its own). */
export const RATE_LIMITED_WAIT = 'rate-limited by the service: waiting';
