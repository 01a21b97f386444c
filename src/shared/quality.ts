/**
 * Data-quality notes: the words the views, the CSV and the PDF use for values the service sent
 * that could not be read. The parser nulls such a value and records what was sent in its
 * object's `_invalid` map (shared/service/schemas.ts); these helpers turn that into text.
 */
import type { ValueFlag } from './service/schemas.ts';
import { visibleText } from './text-safety.ts';

/** The flag a snapshot dated another day than asked carries (positions/store/snapshots.ts filingDay): not an unreadable value. */
const DATE_FLAG = 'data[0].date';

/**
 * The flag the three views of one date carry when they could not be read as one moment (the
 * service's snapshot changed between the three requests every time: positions/sync.ts
 * readOneMoment); its value says how they differ. Not an unreadable value.
 */
export const VIEWS_FLAG = 'views';

/** The flags that are unreadable values (left out of totals), not the snapshot's date nor the views' moment. */
export function unreadableValues(flags: readonly ValueFlag[]): ValueFlag[] {
  return flags.filter((f) => f.path !== DATE_FLAG && f.path !== VIEWS_FLAG);
}

/** How the three views of a snapshot differ, when they could not be read as one moment; null when they are of one. */
export function momentNote(flags: readonly ValueFlag[]): string | null {
  const f = flags.find((x) => x.path === VIEWS_FLAG);
  return f ? `the three views (positions, by token, liquidity) are not of one moment: ${visibleText(f.value)}` : null;
}

type WithInvalid = { _invalid?: Record<string, string> | undefined } | null | undefined;

/** `nav unreadable (NaN); details.exchange_rate unreadable ("abc")` for the objects of one row; '' when all is readable. */
export function invalidNote(...objects: Array<[prefix: string, object: WithInvalid]>): string {
  let note = '';
  for (const [prefix, o] of objects) {
    const bad = o?._invalid;
    if (!bad) continue;
    for (const member in bad) note += `${note ? '; ' : ''}${prefix}${member} unreadable (${visibleText(bad[member]!)})`;
  }
  return note;
}

/** `data[0].positions[3].underlying[1].nav` → the position's name and the rest (`Lido stETH: underlying[1].nav`). */
function whereIs(path: string, data: readonly unknown[] | undefined): string {
  const m = /^data\[(\d+)\]\.positions\[(\d+)\]\.(.*)$/.exec(path);
  if (!m || !data) return path.replace(/^data\[\d+\]\./, '');
  const p = (data[Number(m[1])] as { positions?: Array<Record<string, unknown>> } | undefined)?.positions?.[Number(m[2])];
  const name = p?.['name'] ?? p?.['token_symbol'] ?? p?.['principal_token_name'];
  return typeof name === 'string' && name ? `${visibleText(name)}: ${m[3]}` : path.replace(/^data\[\d+\]\./, '');
}

/** The summary line of a snapshot's flags: what a view or report shows above its table. */
export function qualitySummary(flags: readonly ValueFlag[], data?: readonly unknown[]): string {
  if (!flags.length) return '';
  const values = unreadableValues(flags);
  const dates = flags.filter((f) => f.path === DATE_FLAG);
  const moment = momentNote(flags);
  const parts: string[] = [];
  if (values.length)
    parts.push(
      `${values.length} value${values.length === 1 ? '' : 's'} the service sent could not be read (${values
        .map((f) => `${whereIs(f.path, data)} = ${visibleText(f.value)}`)
        .slice(0, 3)
        .join(', ')}${values.length > 3 ? ', …' : ''}); shown as "—" and left out of totals`,
    );
  for (const d of dates) parts.push(`the service dated this snapshot ${visibleText(d.value)}`);
  if (moment) parts.push(`${moment}; the tables may not match one another`);
  return `Data quality: ${parts.join('; ')}.`;
}

/** For NAV over dates: how many values behind a point were unreadable. */
export function flaggedNote(flagged: number): string {
  return flagged ? `${flagged} unreadable value${flagged === 1 ? '' : 's'} left out` : '';
}

/** Per (wallet, chain) with flags, the summary line, for the positions results a view shows. */
export function resultsQuality(
  results:
    | ReadonlyArray<{ wallet: string; chains: ReadonlyArray<{ chain: string; snapshot: { quality: readonly ValueFlag[]; data: readonly unknown[] } | null }> }>
    | null
    | undefined,
): Array<{ wallet: string; chain: string; note: string; values: number }> {
  const out: Array<{ wallet: string; chain: string; note: string; values: number }> = [];
  for (const r of results ?? [])
    for (const c of r.chains)
      if (c.snapshot?.quality.length)
        out.push({
          wallet: r.wallet,
          chain: c.chain,
          note: qualitySummary(c.snapshot.quality, c.snapshot.data),
          values: unreadableValues(c.snapshot.quality).length,
        });
  return out;
}
