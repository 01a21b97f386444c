/**
 * The unlock ladder as an iCalendar file (RFC 5545): one all-day event per unlock, so a
 * treasury's calendar shows when locked tokens become free. Deterministic: the same cache
 * gives the same bytes (DTSTAMP is the as-of date, UIDs derive from the unlock).
 */

import type { Writable } from 'node:stream';
import type { ReadableDB } from '../store/db.ts';
import { unlockLadder } from '../portfolio/index.ts';
import { visibleText } from '../../../shared/text-safety.ts';

function escape(text: string): string {
  // Labels and symbols come from the user and the service: no control or direction character passes.
  return text.split(/\r?\n/).map(visibleText).join('\n').replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');
}

/** Lines longer than 75 octets are folded (RFC 5545 3.1). */
function fold(line: string): string {
  const bytes = Buffer.from(line, 'utf8');
  if (bytes.length <= 75) return line;
  const parts: string[] = [];
  let start = 0;
  let limit = 75;
  while (start < bytes.length) {
    let end = Math.min(bytes.length, start + limit);
    // Never split a UTF-8 sequence.
    while (end < bytes.length && (bytes[end]! & 0xc0) === 0x80) end--;
    parts.push(bytes.subarray(start, end).toString('utf8'));
    start = end;
    limit = 74; // continuation lines start with a space
  }
  return parts.join('\r\n ');
}

const qtyFmt = new Intl.NumberFormat('en-US', { maximumFractionDigits: 6 });
const usdFmt = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

export function unlocksIcs(db: ReadableDB, req: { date: string; wallets?: readonly string[]; labels?: Map<string, string> }): { text: string; events: number } {
  const ladder = unlockLadder(db, req.date, req.wallets);
  const stamp = `${req.date.replace(/-/g, '')}T000000Z`;
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Folioscope//Unlock ladder//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escape(`Folioscope unlocks from ${req.date}`)}`,
  ];
  for (const u of ladder.unlocks) {
    const day = u.unlockTime.slice(0, 10).replace(/-/g, '');
    const next = new Date(Date.parse(`${u.unlockTime.slice(0, 10)}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10).replace(/-/g, '');
    const who = req.labels?.get(u.wallet) || u.wallet;
    const summary = `Unlock ${u.qty === null ? '?' : qtyFmt.format(u.qty)} ${u.symbol ?? ''} (${who}, ${u.chain})`;
    const description = [
      `Position: ${u.position ?? '-'} (${u.protocolId ?? '-'})`,
      `Wallet: ${u.wallet} on ${u.chain}`,
      `Unlock time: ${u.unlockTime}`,
      `Quantity: ${u.qty === null ? 'unknown' : qtyFmt.format(u.qty)} ${u.symbol ?? ''}`,
      `Value at ${req.date}: ${u.nav === null ? 'unknown' : usdFmt.format(u.nav)}`,
      `Voting power at ${req.date}: ${u.votingPower === null ? 'unknown' : qtyFmt.format(u.votingPower)}`,
    ].join('\n');
    lines.push(
      'BEGIN:VEVENT',
      `UID:${u.chain}-${u.wallet}-${u.tokenId.replace(/[^A-Za-z0-9]/g, '')}-${day}@folioscope`,
      `DTSTAMP:${stamp}`,
      `DTSTART;VALUE=DATE:${day}`,
      `DTEND;VALUE=DATE:${next}`,
      `SUMMARY:${escape(summary)}`,
      `DESCRIPTION:${escape(description)}`,
      'TRANSP:TRANSPARENT',
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return { text: lines.map(fold).join('\r\n') + '\r\n', events: ladder.unlocks.length };
}

export async function exportIcs(
  db: ReadableDB,
  req: { date: string; wallets?: readonly string[]; labels?: Map<string, string> },
  out: Writable,
): Promise<{ events: number }> {
  const { text, events } = unlocksIcs(db, req);
  await new Promise<void>((resolve, reject) => {
    out.once('error', reject);
    // Called with the stream's error too (a full disk): never dropped.
    out.end(text, (err?: Error | null) => (err ? reject(err) : resolve()));
  });
  return { events };
}
