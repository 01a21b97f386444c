import type { JobInfo } from './model.ts';

/** "about 2 min left", "about 40 s left"; rounded, as an estimate should read. */
export function timeLeftText(seconds: number): string {
  if (seconds < 60) return `about ${Math.max(1, Math.round(seconds / 5) * 5 || 1)} s left`;
  if (seconds < 3600) return `about ${Math.round(seconds / 60)} min left`;
  const h = Math.floor(seconds / 3600);
  return `about ${h} h ${Math.round((seconds - h * 3600) / 60)} min left`;
}

const count = (n: number) => Math.round(n).toLocaleString('en-US');

/**
 * What a transaction sync has to tell beyond its count: pages, rate, and the time left once
 * it can be estimated (empty when the job reports none of these).
 */
export function syncRateText(info: Pick<JobInfo, 'pages' | 'rate' | 'etaSeconds'>): string {
  const parts: string[] = [];
  if (info.pages) parts.push(`${count(info.pages)} page${info.pages === 1 ? '' : 's'}`);
  if (info.rate) parts.push(`${count(info.rate)}/s`);
  if (info.etaSeconds !== undefined && info.etaSeconds !== null) parts.push(timeLeftText(info.etaSeconds));
  else if (info.rate) parts.push('time left unknown');
  return parts.join(' · ');
}
