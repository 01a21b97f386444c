/** `folioscope wallet` and `folioscope group`: the watched wallets, and named sets of them that scope exports, reports and reconcile. */
import { forTerminal, jsonForTerminal } from '../../../shared/text-safety.ts';
import { call, type Globals, parse, UsageError, withCore } from '../context.ts';
import { say, warn } from '../io.ts';

export async function walletCommand(g: Globals, args: string[]): Promise<void> {
  const usage = `Usage:
  folioscope wallet add ADDRESS --chains C1,C2 [--label L] [--tags T1,T2]
  folioscope wallet list [--json]
  folioscope wallet remove ADDRESS [--purge]`;
  const p = parse(
    args,
    { chains: { type: 'string' }, label: { type: 'string' }, tags: { type: 'string' }, json: { type: 'boolean' }, purge: { type: 'boolean' } },
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
    } else {
      throw new UsageError(usage);
    }
  });
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
