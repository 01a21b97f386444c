/** `folioscope wallet` and `folioscope group`: the watched wallets, and named sets of them that scope exports, reports and reconcile. */
import { forTerminal, jsonForTerminal } from '../../../shared/text-safety.ts';
import { call, type Globals, parse, UsageError, withCore } from '../context.ts';
import { io, say, setExitCode, warn } from '../io.ts';
import type { WalletImportPreview } from '../../../shared/model.ts';
import { readCsvFile, writeCsvFile } from './counterparties.ts';

export async function walletCommand(g: Globals, args: string[]): Promise<void> {
  const usage = `Usage:
  folioscope wallet add ADDRESS --chains C1,C2 [--label L] [--tags T1,T2]
  folioscope wallet list [--json]
  folioscope wallet remove ADDRESS [--purge]
  folioscope wallet import FILE [--dry-run] [--replace] [--json]
  folioscope wallet export --out FILE
  folioscope wallet edit ADDRESS... [--add-tags T1,T2] [--remove-tags T] [--add-chains C]
                         [--remove-chains C] [--add-group NAME|ID] [--remove-group NAME|ID]
                         [--remove [--purge]] [--json]
import reads a CSV of wallets (address,label,chains,tags,groups; Safe's address,name,chainId;
or an address-book export, whose "ours" entries are taken), row by row: every row is imported
in one step, or (a row in error, a wallet watched under another label without --replace)
nothing. --dry-run says what it would do. export writes the wallets in the form import reads.
edit changes many wallets in one step (the addresses as arguments, or --from FILE with one per
line, "-" for standard input): every one, or (one it cannot apply to) none.`;
  const p = parse(
    args,
    {
      chains: { type: 'string' },
      label: { type: 'string' },
      tags: { type: 'string' },
      json: { type: 'boolean' },
      purge: { type: 'boolean' },
      out: { type: 'string' },
      'dry-run': { type: 'boolean' },
      replace: { type: 'boolean' },
      from: { type: 'string' },
      'add-tags': { type: 'string' },
      'remove-tags': { type: 'string' },
      'add-chains': { type: 'string' },
      'remove-chains': { type: 'string' },
      'add-group': { type: 'string' },
      'remove-group': { type: 'string' },
      remove: { type: 'boolean' },
    },
    usage,
  );
  if (!p) return;
  const [sub, address] = p.positionals;
  const list = (v: string | undefined) =>
    (v ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  await withCore(g, async (core) => {
    if (sub === 'add') {
      if (!address) throw new UsageError(usage);
      if (!p.values.chains) throw new UsageError(`--chains is required.\n\n${usage}`);
      const chains = list(p.values.chains);
      const known = (await call(core, 'app.info', {})).chains;
      const w = await call(core, 'wallets.add', {
        address,
        chains,
        ...(p.values.label && { label: p.values.label }),
        ...(p.values.tags && { tags: list(p.values.tags) }),
      });
      say(forTerminal(`Watching ${w.address} on ${w.chains.join(', ')}${w.label ? ` as "${w.label}"` : ''}.`));
      // Chain ids are the service's and open-ended, so an unknown one is added, with a warning.
      const unknown = chains.filter((c) => !known.includes(c));
      if (unknown.length)
        warn(
          `folioscope: warning: ${unknown.map((c) => `"${forTerminal(c)}"`).join(', ')} ${unknown.length === 1 ? 'is not a chain' : 'are not chains'} this app knows (${known.join(', ')}); a sync of ${unknown.length === 1 ? 'it' : 'them'} fails if the service does not know ${unknown.length === 1 ? 'it' : 'them'} either. To change the chains: folioscope wallet remove ${w.address}, then add it again.`,
        );
    } else if (sub === 'list') {
      const wallets = await call(core, 'wallets.list', undefined);
      // JSON escapes C0 controls itself; C1 and direction controls are escaped too (still valid JSON).
      if (p.values.json) say(jsonForTerminal(wallets));
      else if (!wallets.length) say('No wallets are watched. Add one: folioscope wallet add ADDRESS --chains eth');
      // Labels and tags are shown neutralised: no escape sequence or direction change reaches the terminal.
      else
        for (const w of wallets)
          say(forTerminal(`${w.address}  ${w.chains.join(',').padEnd(16)}  ${w.label}${w.tags.length ? `  [${w.tags.join(', ')}]` : ''}`));
    } else if (sub === 'remove') {
      if (!address) throw new UsageError(usage);
      if (!(await call(core, 'wallets.remove', { address, purge: p.values.purge ?? false }))) throw new Error(`${address} is not a watched wallet.`);
      say(`Stopped watching ${address}${p.values.purge ? ' and deleted its cached history' : ''}.`);
    } else if (sub === 'import') {
      if (!address || p.positionals.length > 2 || p.values.out) throw new UsageError(`import takes the FILE to import.\n\n${usage}`);
      const input = { text: readCsvFile(address), ...(p.values.replace && { replace: true }) };
      const dry = p.values['dry-run'] ?? false;
      const pv = await call(core, dry ? 'wallets.preview' : 'wallets.import', input);
      printWalletImport(pv, dry, p.values.json ?? false);
      // Nothing imported when it was asked for (or, dry, could not be): a failure for scripts.
      if (!pv.applicable) setExitCode(1);
    } else if (sub === 'edit') {
      const v = p.values;
      const addresses = [...p.positionals.slice(1), ...(v.from ? list(readAddressList(v.from).join(',')) : [])];
      if (!addresses.length) throw new UsageError(`edit takes the wallets' addresses (or --from FILE).\n\n${usage}`);
      const groups = v['add-group'] || v['remove-group'] ? await call(core, 'groups.list', undefined) : [];
      const groupId = (ref: string | undefined) => {
        if (!ref) return undefined;
        const g = groups.find((x) => String(x.id) === ref.trim() || x.name.toLowerCase() === ref.trim().toLowerCase());
        if (!g) throw new UsageError(forTerminal(`There is no wallet group "${ref}": folioscope group list names them.`));
        return [g.id];
      };
      const r = await call(core, 'wallets.bulkEdit', {
        addresses,
        ...(v['add-tags'] && { addTags: list(v['add-tags']) }),
        ...(v['remove-tags'] && { removeTags: list(v['remove-tags']) }),
        ...(v['add-chains'] && { addChains: list(v['add-chains']) }),
        ...(v['remove-chains'] && { removeChains: list(v['remove-chains']) }),
        ...(v['add-group'] && { addToGroups: groupId(v['add-group']) }),
        ...(v['remove-group'] && { removeFromGroups: groupId(v['remove-group']) }),
        ...(v.remove && { remove: true, purge: v.purge ?? false }),
      });
      const n = (k: number, one: string) => `${k} ${one}${k === 1 ? '' : 's'}`;
      if (v.json) say(jsonForTerminal(r));
      else if (r.removed) say(`Stopped watching ${n(r.removed, 'wallet')}${v.purge ? ' and deleted their cached history' : ''}.`);
      else say(`Edited ${n(r.wallets, 'wallet')}: ${r.changed} changed, ${r.wallets - r.changed} already so; ${n(r.groupsChanged, 'group')} changed.`);
    } else if (sub === 'export') {
      if (!p.values.out || address) throw new UsageError(`export needs --out FILE.\n\n${usage}`);
      const { csv, count } = await call(core, 'wallets.export', undefined);
      const path = await writeCsvFile(p.values.out, csv);
      say(`Wrote ${count} wallet${count === 1 ? '' : 's'} to ${path}.`);
    } else {
      throw new UsageError(usage);
    }
  });
}

/** Addresses one per line (blank lines and # comments skipped), from a file or "-" (standard input). */
function readAddressList(file: string): string[] {
  const text = file === '-' ? io().stdin() : readCsvFile(file);
  return text
    .split(/\r?\n/)
    .map((l) => l.replace(/#.*/, '').trim())
    .filter(Boolean);
}

const FORMATS: Record<WalletImportPreview['format'], string> = { folioscope: 'CSV', safe: "Safe's CSV", 'address-book': 'an address-book CSV' };

/** The import's report: a line per row (or the preview as JSON), then what was, or would be, done. */
function printWalletImport(pv: WalletImportPreview, dryRun: boolean, json: boolean): void {
  if (json) return void say(jsonForTerminal(pv));
  for (const r of pv.rows) say([`line ${r.row}`, r.outcome.toUpperCase(), r.address, r.label, ...(r.problem ? [r.problem] : [])].map(forTerminal).join('\t'));
  const c = pv.counts;
  const n = (k: number, one: string) => `${k} ${one}${k === 1 ? '' : 's'}`;
  const summary = `${n(c.add, 'wallet')} to add, ${c.update} to update, ${c.same} unchanged, ${c.merged} merged, ${c.skipped} skipped, ${n(c.conflict, 'conflict')}, ${n(c.error, 'error')}`;
  if (pv.applied) say(`Imported (${FORMATS[pv.format]}): ${summary.replace(/to (add|update)/g, (_m, w: string) => (w === 'add' ? 'added' : 'updated'))}.`);
  else if (!pv.applicable)
    say(
      `Nothing was imported: ${summary}. ${c.error ? 'Correct the rows in error' : 'Import with --replace to take the file’s labels'}${c.error && c.conflict ? ' and the conflicts' : ''}, then run it again.`,
    );
  else say(`${dryRun ? 'Would import' : 'Imported'}: ${summary}.`);
}

export async function groupCommand(g: Globals, args: string[]): Promise<void> {
  const usage = `Usage:
  folioscope group save NAME --wallets A,B[,...]   create the group, or replace its members
  folioscope group list [--json]
  folioscope group remove NAME|ID
A group scopes exports, reports and reconcile: --group NAME|ID.`;
  const p = parse(args, { wallets: { type: 'string' }, json: { type: 'boolean' } }, usage);
  if (!p) return;
  const [sub, name] = p.positionals;
  await withCore(g, async (core) => {
    if (sub === 'save') {
      if (!name || !p.values.wallets) throw new UsageError(`A name and --wallets are required.\n\n${usage}`);
      const existing = (await call(core, 'groups.list', undefined)).find((x) => x.name.toLowerCase() === name.trim().toLowerCase());
      const wallets = p.values.wallets
        .split(',')
        .map((w) => w.trim())
        .filter(Boolean);
      const saved = await call(core, 'groups.save', { ...(existing && { id: existing.id }), name, wallets });
      say(forTerminal(`Group ${saved.id} "${saved.name}": ${saved.wallets.join(', ')}.`));
    } else if (sub === 'list') {
      const groups = await call(core, 'groups.list', undefined);
      // A name an older version accepted may hold controls: escaped in JSON, shown as <U+…> in the table.
      if (p.values.json) say(jsonForTerminal(groups));
      else if (!groups.length) say('No wallet groups. Make one: folioscope group save NAME --wallets A,B');
      else {
        // Columns are tab-separated; each field is neutralised on its own, so a tab inside a
        // name shows as <U+0009> and only the separators are real tabs.
        say(['id', 'name', 'wallets'].join('\t'));
        for (const x of groups) say([String(x.id), x.name, x.wallets.join(', ')].map(forTerminal).join('\t'));
      }
    } else if (sub === 'remove') {
      if (!name) throw new UsageError(usage);
      const groups = await call(core, 'groups.list', undefined);
      const x =
        groups.find((y) => y.name.toLowerCase() === name.trim().toLowerCase()) ?? (/^\d+$/.test(name) ? groups.find((y) => y.id === Number(name)) : undefined);
      if (!x) throw new Error(`There is no wallet group "${forTerminal(name.slice(0, 100))}".`);
      await call(core, 'groups.remove', { id: x.id });
      say(forTerminal(`Removed the group "${x.name}" (its wallets stay watched).`));
    } else {
      throw new UsageError(usage);
    }
  });
}
