/** `folioscope counterparties …`: the address book from the command line (docs/address-book.md). */
import { readFileSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import type { Counterparty, CounterpartyImportPreview } from '../../../shared/model.ts';
import { forTerminal, jsonForTerminal } from '../../../shared/text-safety.ts';
import { writeAtomically } from '../../core/index.ts';
import { call, type Globals, parse, UsageError, withCore } from '../context.ts';
import { say, setExitCode } from '../io.ts';

export const COUNTERPARTIES_USAGE = `Usage: folioscope counterparties list [--json]
       folioscope counterparties add ADDRESS NAME [--chains C1,C2] [--tags T1,T2] [--ours] [--note TEXT]
       folioscope counterparties remove ADDRESS
       folioscope counterparties import FILE [--dry-run] [--replace] [--json]
       folioscope counterparties export --out FILE
Names for addresses, shown wherever an address is (timeline, reconcile trace, CSV, PDF).
add replaces the entry of an address already in the book. Without --chains a name holds on
every chain. import reads Folioscope's CSV (address,name,tags,ours,chains,note) or Safe's
address book export (address,name,chainId); an address may be written chain:address
(EIP-3770, e.g. eth:0x…). Every row is checked first: any error, or a row naming an address
the book names otherwise (unless --replace), and nothing is imported; --dry-run only shows
each row's outcome. export writes the CSV import reads.`;

const plural = (n: number, word: string) => `${n} ${n === 1 ? word : word.endsWith('y') ? `${word.slice(0, -1)}ies` : `${word}s`}`;

export function counterpartyLine(c: Counterparty): string {
  return [c.address, c.name, c.ours ? 'ours' : '', c.chains.length ? c.chains.join(',') : 'every chain', c.tags.join(','), c.note.replace(/\r?\n/g, ' ')]
    .map(forTerminal)
    .join('\t');
}

/** Each row's outcome, one line each, then the counts; what was done or why nothing was. */
export function printImport(pv: CounterpartyImportPreview, dryRun: boolean, json: boolean): void {
  if (json) return void say(jsonForTerminal(pv));
  for (const r of pv.rows) say([`line ${r.row}`, r.outcome.toUpperCase(), r.address, r.name, ...(r.problem ? [r.problem] : [])].map(forTerminal).join('\t'));
  const c = pv.counts;
  const summary = `${plural(c.add, 'entry')} to add, ${c.update} to update, ${c.same} unchanged, ${c.merged} merged, ${plural(c.conflict, 'conflict')}, ${plural(c.error, 'error')}`;
  if (pv.applied)
    say(
      `Imported (${pv.format === 'safe' ? "Safe's CSV" : 'CSV'}): ${summary.replace(/to (add|update)/g, (_m, w: string) => (w === 'add' ? 'added' : 'updated'))}.`,
    );
  else if (!pv.applicable)
    say(
      `Nothing was imported: ${summary}. ${c.error ? 'Correct the rows in error' : 'Import with --replace to take the file’s names'}${c.error && c.conflict ? ' and the conflicts' : ''}, then run it again.`,
    );
  else say(`${dryRun ? 'Would import' : 'Imported'}: ${summary}.`);
}

export function readCsvFile(file: string): string {
  return readFileSync(resolvePath(file), 'utf8');
}

/** The book's CSV written whole or not at all (owner-only, as the exports are). */
export async function writeCsvFile(out: string, csv: string): Promise<string> {
  const path = resolvePath(out);
  await writeAtomically(path, async (stream) => {
    stream.write(csv);
  });
  return path;
}

export async function counterpartiesCommand(g: Globals, args: string[]): Promise<void> {
  const usage = COUNTERPARTIES_USAGE;
  const p = parse(
    args,
    {
      chains: { type: 'string' },
      tags: { type: 'string' },
      ours: { type: 'boolean' },
      note: { type: 'string' },
      out: { type: 'string' },
      'dry-run': { type: 'boolean' },
      replace: { type: 'boolean' },
      json: { type: 'boolean' },
    },
    usage,
  );
  if (!p) return;
  const v = p.values;
  const [sub, first, second, ...extra] = p.positionals;
  const split = (s: string | undefined) =>
    (s ?? '')
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean);
  if (extra.length) throw new UsageError(`Unexpected "${forTerminal(extra[0]!.slice(0, 40))}" (quote a name with spaces).\n\n${usage}`);
  if (sub === 'list') {
    const book = await withCore(g, (core) => call(core, 'counterparties.list', undefined));
    if (v.json) say(jsonForTerminal(book));
    else if (!book.length) say('The address book is empty. Add a name: folioscope counterparties add ADDRESS NAME');
    else {
      say(['address', 'name', 'ours', 'chains', 'tags', 'note'].join('\t'));
      for (const c of book) say(counterpartyLine(c));
    }
  } else if (sub === 'add') {
    if (!first || !second) throw new UsageError(`add takes an ADDRESS and a NAME.\n\n${usage}`);
    const saved = await withCore(g, (core) =>
      call(core, 'counterparties.save', {
        address: first,
        name: second,
        ...(v.chains !== undefined && { chains: split(v.chains) }),
        ...(v.tags !== undefined && { tags: split(v.tags) }),
        ...(v.ours && { ours: true }),
        ...(v.note !== undefined && { note: v.note }),
      }),
    );
    say(
      forTerminal(`Saved ${saved.address} as "${saved.name}" (${saved.chains.length ? saved.chains.join(', ') : 'every chain'}${saved.ours ? ', ours' : ''}).`),
    );
  } else if (sub === 'remove') {
    if (!first || second) throw new UsageError(`remove takes one ADDRESS.\n\n${usage}`);
    const removed = await withCore(g, (core) => call(core, 'counterparties.remove', { address: first }));
    if (!removed) throw new Error(`${forTerminal(first.slice(0, 130))} is not in the address book.`);
    say(forTerminal(`Removed ${first} from the address book.`));
  } else if (sub === 'import') {
    if (!first || second || v.out) throw new UsageError(`import takes the FILE to import.\n\n${usage}`);
    const text = readCsvFile(first);
    const input = { text, ...(v.replace && { replace: true }) };
    const pv = await withCore(g, (core) => call(core, v['dry-run'] ? 'counterparties.preview' : 'counterparties.import', input));
    printImport(pv, v['dry-run'] ?? false, v.json ?? false);
    // Nothing imported when it was asked for (or, dry, could not be): a failure for scripts.
    if (!pv.applicable) setExitCode(1);
  } else if (sub === 'export') {
    if (!v.out || first) throw new UsageError(`export needs --out FILE.\n\n${usage}`);
    const out = v.out;
    const { csv, count } = await withCore(g, (core) => call(core, 'counterparties.export', undefined));
    const path = await writeCsvFile(out, csv);
    say(`Wrote ${count} ${count === 1 ? 'entry' : 'entries'} to ${path}.`);
  } else throw new UsageError(usage);
}
