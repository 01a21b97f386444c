/**
 * `folioscope spam …` (docs/spam.md): the user's verdicts on tokens, contracts and addresses, the
 * spam lists, and why a token or a transaction is (not) spam. Everything goes through the contract;
 * what a service, a list or the user wrote is neutralised for the terminal.
 */
import { readFileSync } from 'node:fs';
import { basename, extname, resolve as resolvePath } from 'node:path';
import type { SpamExplanation, SpamListInfo, SpamMark, SpamMarkKind } from '../../../shared/spam.ts';
import { forTerminal, jsonForTerminal } from '../../../shared/text-safety.ts';
import { call, checkDateOptions, type Globals, parse, UsageError, withCore } from '../context.ts';
import { say } from '../io.ts';

export const SPAM_USAGE = `Usage: folioscope spam mark token CONTRACT --chain C [--wallet W] [--not-spam] [--note TEXT] [--json]
       folioscope spam mark contract CONTRACT [--wallet W] [--not-spam] [--note TEXT] [--json]
       folioscope spam mark address ADDRESS [--wallet W] [--not-spam] [--note TEXT] [--json]
       folioscope spam clear token CONTRACT --chain C [--wallet W]
       folioscope spam clear contract|address TARGET [--wallet W]
       folioscope spam list [--wallet W] [--json]
       folioscope spam explain --wallet W --chain C --txn HASH [--json]
       folioscope spam explain --wallet W --chain C --token CONTRACT [--date D] [--json]
       folioscope spam lists [--json]
       folioscope spam lists import FILE [--name NAME] [--json]
       folioscope spam lists remove NAME
Spam is judged without prices: a token's symbol and name (a link, "claim", emoji, an amount, a
copy of a token you hold or of the chain's coin), its market in the liquidity view, and how a
transaction reached the wallet (a multi-send, a token never held, address poisoning: a zero or
dust transfer from an address that looks like a known counterparty). Your verdict always wins:
mark a token (one chain), a contract (every chain) or an address, spam or (--not-spam) not, for
one wallet (--wallet) or every wallet; clear it to let the lists and the rules decide again.
A list (JSON, docs/spam.md) calls tokens and addresses spam or genuine; import replaces a list
of the same name, and a file with a fault imports nothing (the line and member are named).`;

const KINDS: readonly SpamMarkKind[] = ['token', 'contract', 'address'];

export function markLine(m: SpamMark): string {
  return [m.verdict, m.kind, m.chain ?? 'every chain', m.target, m.wallet ?? 'every wallet', m.note.replace(/\r?\n/g, ' ')].map(forTerminal).join('\t');
}

function listLine(l: SpamListInfo): string {
  return [l.name, l.source, l.importedAt ?? '', String(l.tokens), String(l.addresses), String(l.symbolPatterns)].map(forTerminal).join('\t');
}

/** An explanation as a user reads it: the verdict and who decided, each reason with its weight, a poisoning hit, what was not known. */
export function printExplanation(e: SpamExplanation): void {
  const s = e.subject;
  const what =
    s.kind === 'transaction'
      ? `Transaction ${s.txnHash} (${s.chain})`
      : `Token ${s.symbol ?? '(no symbol)'} ${s.cid} (${s.chain}${s.date ? `, ${s.date}` : ''})`;
  const decider = { rules: 'the rules', list: 'a list', user: 'you' }[e.verdict.decidedBy];
  say(forTerminal(`${what}: ${e.verdict.spam ? 'SPAM' : 'NOT SPAM'} (score ${e.verdict.score}, decided by ${decider})`));
  // The reason that decided (yours or a list's) is marked *; the rules' reasons carry their weights.
  e.verdict.reasons.forEach((r, i) => {
    const weight = i === 0 && e.verdict.decidedBy !== 'rules' ? '*' : `${r.weight > 0 ? '+' : ''}${r.weight}`;
    say(`  ${[weight, r.code, r.text].map(forTerminal).join('\t')}`);
  });
  if (!e.verdict.reasons.length) say('  (no reason: nothing about it looks like spam)');
  if (e.lookalike)
    say(forTerminal(`LOOKALIKE: ${e.lookalike.address} imitates ${e.lookalike.imitates} (${e.lookalike.prefix} … ${e.lookalike.suffix}): never pay it.`));
  if (e.poisoning)
    say(
      forTerminal(
        `POISONING: it paid ${e.poisoning.lookalike}, which imitates ${e.poisoning.imitates} (${e.poisoning.prefix} … ${e.poisoning.suffix}): check the address before paying it again.`,
      ),
    );
  for (const n of e.notes) say(forTerminal(`note: ${n}`));
}

export async function spamCommand(g: Globals, args: string[]): Promise<void> {
  const usage = SPAM_USAGE;
  const p = parse(
    args,
    {
      chain: { type: 'string' },
      wallet: { type: 'string' },
      'not-spam': { type: 'boolean' },
      note: { type: 'string' },
      txn: { type: 'string' },
      token: { type: 'string' },
      date: { type: 'string' },
      name: { type: 'string' },
      json: { type: 'boolean' },
    },
    usage,
  );
  if (!p) return;
  const v = p.values;
  const [sub, first, second, ...extra] = p.positionals;
  if (extra.length) throw new UsageError(`Unexpected "${forTerminal(extra[0]!.slice(0, 40))}".\n\n${usage}`);
  const kindOf = (word: string | undefined): SpamMarkKind => {
    if (!word || !(KINDS as readonly string[]).includes(word)) throw new UsageError(`Say what to ${sub}: token, contract or address.\n\n${usage}`);
    return word as SpamMarkKind;
  };
  if (sub === 'mark' || sub === 'clear') {
    const kind = kindOf(first);
    if (!second) throw new UsageError(`${sub} ${kind} takes the ${kind === 'address' ? 'ADDRESS' : 'CONTRACT'}.\n\n${usage}`);
    if (kind === 'token' && !v.chain)
      throw new UsageError(`A token is ${sub === 'mark' ? 'marked' : 'cleared'} on its chain: --chain C (or use contract, for every chain).\n\n${usage}`);
    if (kind !== 'token' && v.chain)
      throw new UsageError(`A${kind === 'address' ? 'n address' : ' contract'} holds on every chain: leave out --chain (or use token).\n\n${usage}`);
    if (sub === 'clear' && (v['not-spam'] || v.note !== undefined)) throw new UsageError(`clear takes no --not-spam or --note.\n\n${usage}`);
    const key = { kind, target: second, ...(v.chain !== undefined && { chain: v.chain }), ...(v.wallet !== undefined && { wallet: v.wallet }) };
    if (sub === 'mark') {
      const saved = await withCore(g, (core) =>
        call(core, 'spam.mark', { ...key, verdict: v['not-spam'] ? 'not-spam' : 'spam', ...(v.note !== undefined && { note: v.note }) }),
      );
      if (v.json) say(jsonForTerminal(saved));
      else
        say(
          forTerminal(
            `Marked the ${saved.kind} ${saved.target}${saved.chain ? ` on ${saved.chain}` : ''} ${saved.verdict === 'spam' ? 'spam' : 'not spam'} for ${saved.wallet ?? 'every wallet'}.`,
          ),
        );
      return;
    }
    const cleared = await withCore(g, (core) => call(core, 'spam.clear', key));
    if (!cleared)
      throw new Error(
        forTerminal(
          `There is no verdict on the ${kind} ${second.slice(0, 130)}${v.chain ? ` on ${v.chain}` : ''} for ${v.wallet ?? 'every wallet'}: folioscope spam list shows them.`,
        ),
      );
    say(forTerminal(`Cleared the verdict on the ${kind} ${second}: the lists and the rules decide again.`));
    return;
  }
  if (sub === 'list') {
    if (first) throw new UsageError(`list takes no ${forTerminal(first.slice(0, 40))}.\n\n${usage}`);
    const marks = await withCore(g, (core) => call(core, 'spam.verdicts', v.wallet === undefined ? undefined : { wallet: v.wallet }));
    if (v.json) say(jsonForTerminal(marks));
    else if (!marks.length) say('No verdicts: the lists and the rules decide. Mark one: folioscope spam mark token CONTRACT --chain C');
    else {
      say(['verdict', 'kind', 'chain', 'target', 'wallet', 'note'].join('\t'));
      for (const m of marks) say(markLine(m));
    }
    return;
  }
  if (sub === 'explain') {
    if (first) throw new UsageError(`explain takes --txn HASH or --token CONTRACT, not ${forTerminal(first.slice(0, 40))}.\n\n${usage}`);
    if (!v.wallet || !v.chain) throw new UsageError(`explain needs --wallet W and --chain C.\n\n${usage}`);
    if ((v.txn === undefined) === (v.token === undefined)) throw new UsageError(`explain one thing: --txn HASH or --token CONTRACT.\n\n${usage}`);
    if (v.txn !== undefined && v.date !== undefined) throw new UsageError(`--date is for a token (a transaction has its own).\n\n${usage}`);
    checkDateOptions(v, usage);
    const e = await withCore(g, (core) =>
      call(core, 'spam.explain', {
        wallet: v.wallet!,
        chain: v.chain!,
        ...(v.txn !== undefined && { txnHash: v.txn }),
        ...(v.token !== undefined && { token: v.token }),
        ...(v.date !== undefined && { date: v.date }),
      }),
    );
    if (v.json) say(jsonForTerminal(e));
    else printExplanation(e);
    return;
  }
  if (sub === 'lists') {
    if (!first) {
      const lists = await withCore(g, (core) => call(core, 'spam.lists', undefined));
      if (v.json) say(jsonForTerminal(lists));
      else {
        say(['name', 'source', 'imported', 'tokens', 'addresses', 'patterns'].join('\t'));
        for (const l of lists) say(listLine(l));
      }
      return;
    }
    if (first === 'import') {
      if (!second) throw new UsageError(`lists import takes the FILE to import.\n\n${usage}`);
      const path = resolvePath(second);
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch (err) {
        throw new Error(`Cannot read ${path}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}.`, { cause: err });
      }
      // Named by --name, else by the file's "name", else by the file's own name.
      const named = v.name ?? (hasName(text) ? undefined : basename(path, extname(path)));
      const info = await withCore(g, (core) => call(core, 'spam.importList', { text, ...(named !== undefined && { name: named }) }));
      if (v.json) say(jsonForTerminal(info));
      else say(forTerminal(`Imported the list "${info.name}": ${info.tokens} tokens, ${info.addresses} addresses, ${info.symbolPatterns} symbol patterns.`));
      return;
    }
    if (first === 'remove') {
      if (!second) throw new UsageError(`lists remove takes the NAME of a list (folioscope spam lists shows them).\n\n${usage}`);
      const removed = await withCore(g, (core) => call(core, 'spam.removeList', { name: second }));
      if (!removed) throw new Error(forTerminal(`There is no imported list "${second.slice(0, 100)}": folioscope spam lists shows them.`));
      say(forTerminal(`Removed the list "${second}".`));
      return;
    }
    throw new UsageError(`lists takes import FILE or remove NAME.\n\n${usage}`);
  }
  throw new UsageError(usage);
}

/** Whether a list file names itself (its top-level "name"); an unreadable file is left to the import to refuse, with its line. */
function hasName(text: string): boolean {
  try {
    const doc = JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
    return typeof doc === 'object' && doc !== null && typeof (doc as { name?: unknown }).name === 'string';
  } catch {
    return false;
  }
}
