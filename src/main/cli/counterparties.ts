/** `folioscope counterparties …`: the address book from the command line (docs/address-book.md). */
import { readFileSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import type { Counterparty, CounterpartyImportPreview } from '../../shared/model.ts';
import { forTerminal, jsonForTerminal } from '../../shared/text-safety.ts';
import { writeAtomically } from '../core/index.ts';

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
  if (json) return void console.log(jsonForTerminal(pv));
  for (const r of pv.rows)
    console.log([`line ${r.row}`, r.outcome.toUpperCase(), r.address, r.name, ...(r.problem ? [r.problem] : [])].map(forTerminal).join('\t'));
  const c = pv.counts;
  const summary = `${plural(c.add, 'entry')} to add, ${c.update} to update, ${c.same} unchanged, ${c.merged} merged, ${plural(c.conflict, 'conflict')}, ${plural(c.error, 'error')}`;
  if (pv.applied)
    console.log(
      `Imported (${pv.format === 'safe' ? "Safe's CSV" : 'CSV'}): ${summary.replace(/to (add|update)/g, (_m, w: string) => (w === 'add' ? 'added' : 'updated'))}.`,
    );
  else if (!pv.applicable)
    console.log(
      `Nothing was imported: ${summary}. ${c.error ? 'Correct the rows in error' : 'Import with --replace to take the file’s names'}${c.error && c.conflict ? ' and the conflicts' : ''}, then run it again.`,
    );
  else console.log(`${dryRun ? 'Would import' : 'Imported'}: ${summary}.`);
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
