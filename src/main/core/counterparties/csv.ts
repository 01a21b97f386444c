/**
 * The address book as CSV (docs/address-book.md): reading a file, row by row, into what an
 * import would write, and writing the book in the form reading takes back.
 *
 * Two layouts are read: Folioscope's `address,name,tags,ours,chains,note` (only address and
 * name required, columns in any order) and Safe's address book export `address,name,chainId`
 * (one row per address and chain: rows of one address and one name are merged, their chains
 * joined). An address may carry an EIP-3770 prefix (`eth:0x…`), which adds that chain (to the
 * book's chains for the address, never removing one); the chains column states them whole.
 */
import type { Counterparty, CounterpartyImportPreview, CounterpartyImportRow } from '../../../shared/model.ts';
import { forCsv } from '../../../shared/text-safety.ts';
import { ValidationError } from '../store/validation.ts';
import { chainOrRefuse } from './chains.ts';
import { cleanEntry, sameEntry } from './entry.ts';

export const CSV_COLUMNS = ['address', 'name', 'tags', 'ours', 'chains', 'note'] as const;
const SAFE_COLUMNS = ['address', 'name', 'chainid'];
/** Rows one file may hold (a treasury's book is hundreds; this bounds the work of a preview). */
export const MAX_ROWS = 10_000;

type Entry = Omit<Counterparty, 'createdAt' | 'updatedAt'>;

/**
 * RFC 4180 records: fields split on commas, quoted fields may hold commas, quotes (doubled) and
 * line breaks; CRLF or LF line ends; a BOM at the start ignored. Each record keeps the line it
 * starts on, so an error names the line the user sees in an editor.
 */
export function parseCsvRecords(text: string): Array<{ line: number; fields: string[] }> {
  const out: Array<{ line: number; fields: string[] }> = [];
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  while (i < text.length) {
    const start = line;
    const fields: string[] = [];
    for (;;) {
      let field = '';
      if (text[i] === '"') {
        i++;
        for (;;) {
          if (i >= text.length) throw new ValidationError('file', `Line ${start}: a quoted field is not closed.`);
          const c = text[i]!;
          if (c === '"') {
            if (text[i + 1] === '"') {
              field += '"';
              i += 2;
              continue;
            }
            i++;
            break;
          }
          if (c === '\n') line++;
          field += c;
          i++;
        }
        if (i < text.length && text[i] !== ',' && text[i] !== '\n' && text[i] !== '\r')
          throw new ValidationError('file', `Line ${start}: text after a closing quote.`);
      } else {
        while (i < text.length && text[i] !== ',' && text[i] !== '\n' && text[i] !== '\r') field += text[i++];
      }
      fields.push(field);
      if (text[i] === ',') {
        i++;
        continue;
      }
      break;
    }
    if (text[i] === '\r') i++;
    if (text[i] === '\n') i++;
    line++;
    // Blank lines (an editor's trailing newline) are no rows.
    if (!(fields.length === 1 && fields[0]!.trim() === '')) out.push({ line: start, fields });
  }
  return out;
}

/** The CSV writer (reports/csv.ts) puts an apostrophe before text a spreadsheet would run; reading takes it off again. */
export const unneutralise = (v: string) => (/^'[=+\-@\t\r]/.test(v) ? v.slice(1) : v);

/** A cell's `;`-separated items, trimmed, empty ones dropped. */
export const list = (v: string | undefined) =>
  (v ?? '')
    .split(';')
    .map((x) => x.trim())
    .filter(Boolean);

/** The "ours" cell: true/yes/1 or false/no/0/empty; anything else refused. */
export function readOurs(v: string | undefined): boolean {
  const t = (v ?? '').trim().toLowerCase();
  if (t === '' || t === 'false' || t === 'no' || t === '0') return false;
  if (t === 'true' || t === 'yes' || t === '1') return true;
  throw new ValidationError('ours', `"ours" is "${v!.slice(0, 20)}": write true or false.`);
}

/**
 * What importing `text` into a book that holds `book` would do, row by row. `known`: the app's
 * chain ids. Nothing is written; `entries` are the entries to write when the preview is
 * applicable (every row read, no conflict, or replace asked).
 */
export function planCounterpartyImport(
  text: string,
  book: readonly Counterparty[],
  known: readonly string[],
  options: { replace?: boolean } = {},
): { preview: CounterpartyImportPreview; entries: Entry[] } {
  const replace = options.replace ?? false;
  const records = parseCsvRecords(text);
  if (!records.length) throw new ValidationError('file', 'The file is empty: expected a header line (address,name,…) and a row per address.');
  if (records.length - 1 > MAX_ROWS) throw new ValidationError('file', `The file has ${records.length - 1} rows; at most ${MAX_ROWS} are read at once.`);
  const header = records[0]!.fields.map((h) => h.trim().toLowerCase());
  const safe = header.includes('chainid');
  const allowed: readonly string[] = safe ? SAFE_COLUMNS : CSV_COLUMNS;
  const unknown = header.filter((h) => !allowed.includes(h));
  if (unknown.length || !header.includes('address') || !header.includes('name') || new Set(header).size !== header.length)
    throw new ValidationError(
      'file',
      `Line 1 is not an address-book header: expected ${CSV_COLUMNS.join(',')} (address and name required) or Safe's address,name,chainId${unknown.length ? `; not a column: ${unknown.slice(0, 5).join(', ')}` : ''}.`,
    );
  const col = (fields: string[], name: string) => {
    const k = header.indexOf(name);
    return k < 0 ? undefined : unneutralise(fields[k] ?? '');
  };
  const byAddress = new Map(book.map((c) => [c.address, c]));
  const rows: CounterpartyImportRow[] = [];
  // The file's entries by address, and the row that first named each.
  // `stated`: a row gave the chains column, which states the entry's chains whole (what export
  // writes); chains named only by a prefix or Safe's chainId add to the book's (below).
  const seen = new Map<string, { entry: Entry; row: CounterpartyImportRow; chainsOf: Set<string>; everyChain: boolean; stated: boolean; exact: Set<string> }>();
  for (const { line, fields } of records.slice(1)) {
    const rawAddress = (col(fields, 'address') ?? '').trim();
    const row: CounterpartyImportRow = {
      row: line,
      address: rawAddress,
      name: (col(fields, 'name') ?? '').trim(),
      chains: [],
      outcome: 'error',
      problem: null,
    };
    rows.push(row);
    try {
      if (fields.length !== header.length) throw new ValidationError('row', `has ${fields.length} fields, the header ${header.length}.`);
      let address = rawAddress;
      const chains: string[] = [];
      const chainName = (name: string, numeric: boolean) => chainOrRefuse(name, known, numeric);
      // EIP-3770: short name, a colon, the address.
      const colon = address.indexOf(':');
      if (colon > 0) {
        chains.push(chainName(address.slice(0, colon), false));
        address = address.slice(colon + 1);
      }
      if (safe) {
        const id = (col(fields, 'chainid') ?? '').trim();
        if (id) chains.push(chainName(id, true));
      } else for (const c of list(col(fields, 'chains'))) chains.push(chainName(c, true));
      const stated = !safe && list(col(fields, 'chains')).length > 0;
      const entry = cleanEntry({
        address,
        name: row.name,
        tags: list(col(fields, 'tags')),
        ours: readOurs(col(fields, 'ours')),
        chains,
        note: col(fields, 'note') ?? '',
      });
      row.address = entry.address;
      row.chains = entry.chains;
      const exact = JSON.stringify(entry);
      const earlier = seen.get(entry.address);
      if (earlier) {
        if (earlier.entry.name !== entry.name) {
          row.outcome = 'conflict';
          row.problem = `line ${earlier.row.row} names this address "${earlier.entry.name}"`;
          continue;
        }
        if (earlier.exact.has(exact)) throw new ValidationError('row', `repeats line ${earlier.row.row}.`);
        // Safe writes one row per chain: one entry, the chains joined (no chain: every chain).
        earlier.exact.add(exact);
        if (!entry.chains.length) earlier.everyChain = true;
        earlier.stated ||= stated;
        for (const c of entry.chains) earlier.chainsOf.add(c);
        earlier.entry.tags = [...new Set([...earlier.entry.tags, ...entry.tags])];
        earlier.entry.ours ||= entry.ours;
        if (entry.note && !earlier.entry.note.includes(entry.note))
          earlier.entry.note = earlier.entry.note ? `${earlier.entry.note}\n${entry.note}` : entry.note;
        row.outcome = 'merged';
        row.problem = `joined to line ${earlier.row.row}`;
        continue;
      }
      seen.set(entry.address, { entry, row, chainsOf: new Set(entry.chains), everyChain: !entry.chains.length, stated, exact: new Set([exact]) });
      row.outcome = 'add';
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      row.outcome = 'error';
      row.problem = err.message.replace(/^./, (c) => c.toLowerCase());
    }
  }
  const entries: Entry[] = [];
  for (const s of seen.values()) {
    const current = byAddress.get(s.entry.address);
    // A prefix (`eth:0x…`) or Safe's row per chain says the name holds on that chain, not on it
    // alone: re-importing one chain of an entry held on several must not drop the others (an
    // entry on every chain stays so). Only the chains column narrows an entry's chains.
    if (current && !s.stated && !s.everyChain) {
      if (!current.chains.length) s.everyChain = true;
      for (const c of current.chains) s.chainsOf.add(c);
    }
    s.entry.chains = s.everyChain ? [] : [...s.chainsOf].sort();
    s.row.chains = s.entry.chains;
    if (current && current.name !== s.entry.name && !replace) {
      s.row.outcome = 'conflict';
      s.row.problem = `the address book names it "${current.name}" (import with replace to take the file's name)`;
    } else s.row.outcome = !current ? 'add' : sameEntry(current, s.entry) ? 'same' : 'update';
    if (s.row.outcome === 'add' || s.row.outcome === 'update') entries.push(s.entry);
  }
  const counts = { add: 0, update: 0, same: 0, merged: 0, conflict: 0, error: 0 };
  for (const r of rows) counts[r.outcome]++;
  const applicable = counts.error === 0 && counts.conflict === 0;
  return { preview: { format: safe ? 'safe' : 'folioscope', rows, counts, replace, applicable, applied: false }, entries };
}

/**
 * A cell as the reports write one (reports/csv.ts, which sits above this part): quoted when it
 * holds a quote, comma or line break; text a spreadsheet would run as a formula after an
 * apostrophe (which reading takes off again); invisible or text-moving characters made visible.
 */
function cell(v: string | boolean): string {
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  let text = forCsv(v);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
export const csvLine = (cells: ReadonlyArray<string | boolean>) => cells.map(cell).join(',') + '\r\n';

/**
 * The book as CSV, in the columns import reads (`;` between tags and between chains), with a
 * byte-order mark as the reports have (a spreadsheet then reads it as UTF-8).
 */
export function counterpartiesCsv(book: readonly Counterparty[]): string {
  let out = '\ufeff' + csvLine([...CSV_COLUMNS]);
  for (const c of book) out += csvLine([c.address, c.name, c.tags.join(';'), c.ours, c.chains.join(';'), c.note]);
  return out;
}
