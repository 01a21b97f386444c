/** `folioscope backup` and `folioscope data`: checked copies of the cache, and the user's own data as a file. */
import { readFileSync, statSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { LIMITS } from '../../../shared/contract.ts';
import type { BackupInfo, UserDataPreview } from '../../../shared/model.ts';
import { forTerminal, jsonForTerminal } from '../../../shared/text-safety.ts';
import { call, type Globals, parse, passphraseFromStdin, plural, UsageError, waitForJobs, withCore } from '../context.ts';
import { say, warn } from '../io.ts';

/** A backup's rows in words: "2 wallets, 1 group, 3 schedules, 12 snapshots, 1000 transactions". */
function countsText(counts: Record<string, number>): string {
  const named: Array<[string, string, string]> = [
    ['wallets', 'wallet', 'wallets'],
    ['wallet_groups', 'group', 'groups'],
    ['schedules', 'schedule', 'schedules'],
    ['snapshots', 'snapshot', 'snapshots'],
    ['transactions', 'transaction', 'transactions'],
  ];
  return named
    .filter(([t]) => counts[t] !== undefined)
    .map(([t, one, many]) => plural(counts[t]!, one, many))
    .join(', ');
}

const utc = (iso: string) => `${iso.slice(0, 19).replace('T', ' ')} UTC`;

export async function backupCommand(g: Globals, args: string[]): Promise<void> {
  const usage = `Usage: folioscope backup list [--json]
       folioscope backup create
       folioscope backup verify NAME
       folioscope backup restore NAME
  Backups are checked copies of the cache in <data folder>/backups, each with a manifest
  (NAME.json: its schema, the rows of its tables, its SHA-256). The app and the web shell make
  one a day while open (Settings: on or off, how many to keep), and one is made before every
  upgrade of the cache. verify checks a backup as restore does; restore keeps the current
  cache as <cache>.before-restore-<time> and puts the backup in its place. Never the access key.`;
  const p = parse(args, { json: { type: 'boolean' } }, usage);
  if (!p) return;
  const [sub, name, ...extra] = p.positionals;
  if (extra.length || !['list', 'create', 'verify', 'restore'].includes(sub ?? '')) throw new UsageError(usage);
  if ((sub === 'verify' || sub === 'restore') && !name)
    throw new UsageError(`${sub} needs the NAME of a backup (folioscope backup list shows them).\n\n${usage}`);
  const line = (b: BackupInfo) =>
    [b.name, utc(b.createdAt), b.reason, `schema ${b.schemaVersion}`, `${(b.bytes / 2 ** 20).toFixed(1)} MiB`, b.problem ?? countsText(b.counts)]
      .map(forTerminal)
      .join('\t');
  await withCore(g, async (core) => {
    if (sub === 'list') {
      const list = await call(core, 'backups.list', undefined);
      if (p.values.json) return void say(jsonForTerminal(list));
      if (!list.backups.length) return void say(`No backups in ${list.folder}. Make one: folioscope backup create`);
      say(['name', 'made', 'why', 'schema', 'size', 'rows'].join('\t'));
      for (const b of list.backups) say(line(b));
      if (list.problem) warn(forTerminal(`The last automatic backup failed: ${list.problem}`));
    } else if (sub === 'create') {
      const b = await call(core, 'backups.create', undefined);
      say(forTerminal(`Backup ${b.name} made and checked (integrity_check ok, schema ${b.schemaVersion}): ${countsText(b.counts)}.`));
    } else if (sub === 'verify') {
      const v = await call(core, 'backups.verify', { name: name! });
      if (!v.ok) throw new Error(v.problem ?? `${name} did not check out.`);
      const b = v.backup!;
      say(
        forTerminal(
          `ok ${b.name}: SHA-256 matches its manifest, integrity_check ok, schema ${b.schemaVersion}, ${countsText(b.counts)} (made ${utc(b.createdAt)}).`,
        ),
      );
    } else {
      const r = await call(core, 'backups.restore', { name: name! });
      say(
        forTerminal(
          `Restored ${r.restored.name} (made ${utc(r.restored.createdAt)}: ${countsText(r.restored.counts)}). The cache it replaced is kept at ${r.keptAside}.`,
        ),
      );
    }
  });
}

function previewText(pv: UserDataPreview): string {
  const state = { added: 'add', changed: 'change', unchanged: 'same', conflict: 'CONFLICT' } as const;
  const lines = pv.items.map((i) => [state[i.state].padEnd(8), i.kind.padEnd(8), i.key, i.detail].filter(Boolean).join('  '));
  const c = pv.counts;
  lines.push(`${c.added} to add, ${c.changed} to change, ${c.unchanged} unchanged, ${plural(c.conflict, 'conflict')}.`);
  return lines.map(forTerminal).join('\n');
}

export async function dataCommand(g: Globals, args: string[]): Promise<void> {
  const usage = `Usage: folioscope data export --out FILE [--passphrase-stdin]
       folioscope data import FILE [--dry-run] [--replace] [--passphrase-stdin] [--json]
  Your own data as a file (docs/data-format.md): wallets (address, label, tags, chains), groups
  (name, members), schedules, alert rules (scope, condition), settings, the address book, notes,
  categories and rules, closed periods, spam verdicts and spam lists. Not the cached service
  data, not the alerts that fired, never the access key.
  --passphrase-stdin  export: encrypt the file with the passphrase read from standard input
                      (scrypt + AES-256-GCM; at least 8 characters); import: its passphrase
  --dry-run           import: show what would be added, changed, unchanged or in conflict; change nothing
  --replace           import: where the file and this folder conflict (a wallet on other chains,
                      a group with other members), take the file's version. Without it, any
                      conflict stops the import and nothing is changed.
  An import is all or nothing: one transaction.`;
  const p = parse(
    args,
    {
      out: { type: 'string' },
      'passphrase-stdin': { type: 'boolean' },
      'dry-run': { type: 'boolean' },
      replace: { type: 'boolean' },
      json: { type: 'boolean' },
    },
    usage,
  );
  if (!p) return;
  const [sub, file, ...extra] = p.positionals;
  const v = p.values;
  if (extra.length) throw new UsageError(usage);
  if (sub === 'export') {
    if (!v.out || file) throw new UsageError(`--out FILE is required.\n\n${usage}`);
    const out = resolvePath(v.out);
    const passphrase = v['passphrase-stdin'] ? passphraseFromStdin() : undefined;
    await withCore(
      g,
      async (core) => {
        const started = await call(core, 'userData.export', passphrase !== undefined ? { passphrase } : {});
        if (!started) throw new Error('The export was not started.');
        const [job] = await waitForJobs(core, [started]);
        if (!job || job.state !== 'done') throw new Error(job?.error?.message ?? 'The export was cancelled.');
        say(`Wrote your data (${plural(job.output?.rows ?? 0, 'wallet')}${passphrase !== undefined ? ', encrypted' : ''}) to ${out}.`);
      },
      { chooseSavePath: async () => out },
    );
  } else if (sub === 'import') {
    if (!file || v.out) throw new UsageError(`data import takes the FILE to import.\n\n${usage}`);
    const size = statSync(file, { throwIfNoEntry: false })?.size;
    if (size === undefined) throw new Error(`There is no file ${forTerminal(file)}.`);
    if (size > LIMITS.userDataChars)
      throw new Error(`${forTerminal(file)} is too large for a data file (${size} bytes; at most ${LIMITS.userDataChars}). Nothing was imported.`);
    const text = readFileSync(file, 'utf8');
    const passphrase = v['passphrase-stdin'] ? passphraseFromStdin() : undefined;
    const input = { text, ...(passphrase !== undefined && { passphrase }), ...(v.replace && { replace: true }) };
    await withCore(g, async (core) => {
      const pv = await call(core, v['dry-run'] ? 'userData.preview' : 'userData.import', input);
      if (v.json) say(jsonForTerminal(pv));
      else {
        say(forTerminal(`Data file of ${utc(pv.exportedAt)}${pv.encrypted ? ' (encrypted)' : ''}:`));
        say(previewText(pv));
      }
      if (!pv.applicable)
        throw new Error(
          `${plural(pv.counts.conflict, 'conflict')} with what is here: nothing was imported. Run again with --replace to take the file's version of ${pv.counts.conflict === 1 ? 'it' : 'them'}.`,
        );
      if (v['dry-run']) {
        if (!v.json) say('Dry run: nothing was changed.');
      } else if (!v.json) say(`Imported: ${pv.counts.added} added, ${pv.counts.changed} changed${pv.replace ? `, ${pv.counts.conflict} replaced` : ''}.`);
    });
  } else throw new UsageError(usage);
}
