import { afterEach, describe, expect, it } from 'vitest';
import { closePeriod } from '../../src/main/core/closes/closes.ts';
import { Secrets } from '../../src/main/core/secrets/secrets.ts';
import { normaliseBaseUrl } from '../../src/main/core/session/profile.ts';
import { CacheInUseError } from '../../src/main/core/store/cache-conversion.ts';
import { saveGroup } from '../../src/main/core/store/groups.ts';
import { addWallet, updateWallet } from '../../src/main/core/store/wallets.ts';
import { schemaError, serializeError } from '../../src/main/core/util/errors.ts';
import { bulkEditWallets } from '../../src/main/core/wallets/bulk.ts';
import { planWalletImport } from '../../src/main/core/wallets/csv.ts';
import { errorText, rowProblem } from '../../src/renderer/src/lib/core-text.ts';
import { setLocale } from '../../src/renderer/src/lib/format.ts';
import { german } from '../../src/renderer/src/lib/words.de.ts';
import { setLanguage } from '../../src/renderer/src/lib/words.ts';
import { CONTRACT } from '../../src/shared/contract.ts';
import { type CoreCode, type CoreCodeValues, englishCoreCodes, sayCode } from '../../src/shared/core-codes.ts';
import type { MonthlyPack, SerializedError } from '../../src/shared/model.ts';
import { createDB } from '../support/store.ts';

/**
 * The core's refusals on a German screen (issue 39: one language per screen). A refusal a user
 * meets from the screens (a bad address, a watched wallet, a group's name, a close, a wallets
 * file, a rule's amounts, a full disk) reaches the renderer with a code and values beside its
 * English message; the screen says it in German, what the user typed kept as typed. The CLI's
 * English is unchanged: the core writes it from the same English words.
 */
afterEach(() => {
  setLocale(null);
  setLanguage('en-US');
});

const W1 = '0x' + 'a1'.repeat(20);
const W2 = '0x' + 'b2'.repeat(20);

/** One example of each code's values: a new code without one fails the typecheck, one without German words fails below. */
const examples: { [K in CoreCode]: CoreCodeValues[K] } = {
  'input.tooLong': { field: 'name', detail: 'Too big: expected string to have <=100 characters', max: 100 },
  'input.empty': { field: 'category', detail: 'Too small: expected string to have >=1 characters' },
  'input.notNumber': { field: 'conditions.minAmount', detail: 'Invalid input: expected number, received NaN' },
  'input.tooSmall': { field: 'conditions.minAmount', detail: 'Too small: expected number to be >=0', min: 0 },
  'input.tooBig': { field: 'position', detail: 'Too big: expected number to be <=10000', max: 10_000 },
  'input.unsafe': { field: 'name', detail: 'The rule name contains …', kind: 'control', char: 'U+202E' },
  'input.invalid': { field: 'conditions.methods.0', detail: 'expected a method id in hex (0x…)' },
  'rule.amountNeedsToken': { field: 'conditions.token', detail: 'an amount range is of one token: name the token too' },
  'rule.amountOrder': { field: 'conditions.maxAmount', detail: 'the largest amount is below the smallest' },
  'address.empty': {},
  'address.spaces': {},
  'address.tooLong': { max: 128 },
  'address.notAscii': {},
  'address.notEvm': {},
  'chains.none': {},
  'chains.badId': { chain: 'eth mainnet' },
  'chains.unknown': { chain: 'foo', known: 'eth, arb, base', numeric: true },
  'date.invalid': { value: '31.12.2025' },
  'text.unsafe': { field: 'label', kind: 'broken', char: 'U+D800' },
  'text.tooLong': { field: 'note', max: 500 },
  'tag.tooLong': { tag: 'averyveryvery', max: 32 },
  'tag.semicolon': { tag: 'a;b' },
  'tags.tooMany': { max: 20 },
  'name.empty': {},
  'wallet.watched': { address: W1, label: 'Treasury' },
  'wallet.notWatched': { address: W1 },
  'wallet.rewritten': { chains: 'eth, sol', address: W1 },
  'group.missing': { id: 7 },
  'group.noName': {},
  'group.exists': { name: 'Ops' },
  'group.notWatched': { addresses: W2 },
  'close.noWallets': { scope: 'Ops' },
  'close.closedAlready': { scope: 'Ops', from: '2026-10-01', to: '2026-10-31', id: 3, at: '2026-11-02T09:30:00.000Z' },
  'close.partial': {
    scope: 'Ops',
    from: '2026-10-01',
    to: '2026-10-31',
    reasons: 'positions at 2026-10-31 are not cached (sync that date)',
  },
  'close.noReason': {},
  'close.missing': { id: 9 },
  'close.reopenedAlready': { scope: 'Ops', from: '2026-10-01', to: '2026-10-31', id: 3, at: '2026-11-03T10:00:00.000Z' },
  'bulk.notWatched': { addresses: W2, more: 2 },
  'bulk.groupMissing': { id: 4 },
  'bulk.groupBoth': { id: 4 },
  'bulk.removeAndChange': {},
  'bulk.noChain': { address: W1 },
  'bulk.wallet': { address: W1, problem: 'A tag contains …', inner: { code: 'tags.tooMany', values: { max: 20 } } },
  'import.empty': {},
  'import.tooMany': { rows: 20_001, max: 20_000 },
  'import.badHeader': { columns: 'address,label,chains,tags,groups', unknown: 'wallet' },
  'row.fields': { fields: 3, header: 5 },
  'row.noChain': {},
  'row.notOurs': {},
  'row.labelledBefore': { line: 2, label: 'Treasury' },
  'row.joined': { line: 2 },
  'row.watchedAs': { label: 'Treasury' },
  'storage.diskFull': {},
  'storage.damaged': { code: 'SQLITE_CORRUPT' },
  'storage.readOnly': {},
  'storage.readOnlyCache': { file: '/data/cache.sqlite' },
  'storage.unwritable': { code: 'SQLITE_IOERR' },
  'storage.inUse': { path: '/data/cache.sqlite' },
  'cache.wrongPassphrase': {},
  'category.missing': { name: 'Payroll' },
  'category.noName': {},
  'category.colour': {},
  'category.kind': { kinds: 'inflow, outflow, internal, any' },
  'category.exists': { name: 'Payroll' },
  'category.missingId': { id: 3 },
  'category.inUse': { name: 'Payroll', count: 2, rules: 'Salaries, Bonus' },
  'rules.notEvm': { value: '0x12' },
  'rules.noCondition': {},
  'rules.amountToken': {},
  'rules.amountOrder': {},
  'rules.missing': { id: 5 },
  'rules.order': {},
  'txn.notCached': { hash: '0xdeadbeef', wallet: W1, chain: 'eth' },
  'sync.notWatched': { address: W2 },
  'range.endBeforeStart': {},
  'range.tooMany': { dates: 4000 },
  'txn.badHash': {},
  'key.empty': { what: 'The access key' },
  'key.spaces': { what: 'The access key' },
  'key.notAscii': { what: 'The access key kept in the keychain for this service' },
  'key.tooLong': { what: 'The access key', length: 3000, max: 2048 },
  'key.tooShort': { what: 'The access key', min: 8 },
  'url.invalid': {},
  'url.scheme': {},
  'url.credentials': {},
  'cache.busy': {},
  'backup.busy': {},
  'encryption.none': {},
  'encryption.already': { source: 'keychain' },
  'encryption.passphraseNeeded': {},
  'jobs.running': { count: 2, names: 'Transactions of Treasury, Positions of Ops', then: 'restore' },
  'edit.stale': { entity: 'group', name: 'Treasury', person: 'bob@desktop', at: '2026-11-29T05:20:00.000Z' },
  'role.forbidden': { person: 'carol', role: 'viewer', op: 'wallets.add', needs: 'books' },
  'team.serviceOnServer': { op: 'key.set' },
  'team.encryptionOnServer': { op: 'cache.decrypt' },
};

/** Words of the core's English refusals: none may be left in a German one (the schema's own detail aside, see input.invalid). */
const ENGLISH =
  /\b(?:The access key|is empty|paste it|That is not a URL|must start|Put the access key|under way|is not encrypted|already encrypted|jobs are running|job is running|wait for|Enter|The address|Not an|Choose|is not|contains|remove it|too long|at most|already|watched|There is|Give|exists|Add the|nothing to|Reopen|partial|cannot|was reopened|Nothing was changed|The file|expected|Line \d|has \d+ fields|names no chain|not one of yours|labels this|joined to|The disk|damaged|read-only|could not|is open in|That is not|an amount range|An amount range|the largest|The largest|unknown chain|is not a date|A category|A colour|A kind|is set by|A rule needs|Name every|is not a cached|add it first|The end date|choose a shorter|Not a transaction hash|was changed by|reload it)\b/;

const de = (said: SerializedError['said']) => sayCode(said!, german.coreCodes);

describe('the core’s refusals by code', () => {
  it('has German words for every code, none English, the values kept', () => {
    const left: string[] = [];
    for (const code of Object.keys(examples) as CoreCode[]) {
      const said = { code, values: examples[code] } as NonNullable<SerializedError['said']>;
      const english = sayCode(said, englishCoreCodes);
      const german = de(said);
      if (german === english || (code !== 'input.invalid' && ENGLISH.test(german))) left.push(`${code}: ${german}`);
      // What the user typed or the file held is in the German as written.
      for (const v of Object.values(examples[code]))
        if (
          typeof v === 'string' &&
          !['detail', 'problem'].some((k) => (examples[code] as Record<string, unknown>)[k] === v) &&
          /^(0x|U\+|SQLITE|\/|eth|Ops|Treasury|a;b|foo)/.test(v)
        )
          expect(german, code).toContain(v);
    }
    expect(left).toEqual([]);
  });

  it('says dates in German, and a close’s reasons (the core’s sentences) in German too', () => {
    setLocale('de-DE');
    setLanguage('de-DE');
    const closed = de({ code: 'close.closedAlready', values: examples['close.closedAlready'] });
    expect(closed).toMatch(/^Ops, 1\. Okt\. 2026 bis 31\. Okt\. 2026 ist bereits abgeschlossen \(Abschluss 3, 2\. Nov\. 2026, \d\d:\d\d/);
    expect(de({ code: 'close.partial', values: examples['close.partial'] })).toBe(
      'Der Monatsbericht für Ops, 1. Okt. 2026 bis 31. Okt. 2026 ist unvollständig und kann daher nicht abgeschlossen werden: Positionen am 31. Okt. 2026 nicht gespeichert (dieses Datum synchronisieren)',
    );
    expect(de({ code: 'bulk.wallet', values: examples['bulk.wallet'] })).toBe(`${W1}: Höchstens 20 Tags. Nichts wurde geändert.`);
  });
});

describe('refusals met from the screens carry their code', () => {
  /** The error the shells would send for what `f` throws. */
  const sent = (f: () => unknown): SerializedError => {
    try {
      f();
    } catch (err) {
      return serializeError(err);
    }
    throw new Error('expected a refusal');
  };

  it('adding a wallet, a group, a bulk edit, a close: English unchanged, German from the code', () => {
    const db = createDB();
    addWallet(db, { address: W1, chains: ['eth'], label: 'Treasury' });
    const errors = [
      sent(() => addWallet(db, { address: '0x12', chains: ['eth'] })),
      sent(() => addWallet(db, { address: W1.toUpperCase().replace('0X', '0x'), chains: ['eth'] })),
      sent(() => addWallet(db, { address: W2, chains: ['eth'], label: 'Evil\u202eLabel' })),
      sent(() => addWallet(db, { address: W2, chains: [] })),
      sent(() => updateWallet(db, W2, { label: 'x' })),
      sent(() => saveGroup(db, { name: 'Ops', wallets: [W1] }) && saveGroup(db, { name: 'ops', wallets: [] })),
      sent(() => saveGroup(db, { name: 'New', wallets: [W2] })),
      sent(() => bulkEditWallets(db, { addresses: [W1], removeChains: ['eth'] })),
      sent(() =>
        closePeriod(db, {
          scope: { kind: 'all', name: 'All wallets', members: [] } as never,
          from: '2026-10-01',
          to: '2026-10-31',
          buildPack: () => ({}) as MonthlyPack,
        }),
      ),
      serializeError(Object.assign(new Error('disk I/O'), { code: 'SQLITE_FULL' })),
      serializeError(Object.assign(new Error('busy'), { code: 'SQLITE_BUSY' })),
      serializeError(new CacheInUseError('/data/cache.sqlite')),
      // Settings: the access key and the base URL.
      sent(() => Secrets.checkFormat('short')),
      sent(() => normaliseBaseUrl('ftp://api.example.com')),
    ];
    expect(errors.map((e) => e.said?.code)).toEqual([
      'address.notEvm',
      'wallet.watched',
      'text.unsafe',
      'chains.none',
      'wallet.notWatched',
      'group.exists',
      'group.notWatched',
      'bulk.noChain',
      'close.noWallets',
      'storage.diskFull',
      'storage.unwritable',
      'storage.inUse',
      'key.tooShort',
      'url.scheme',
    ]);
    // The English as the CLI has always printed it.
    expect(errors[0]!.message).toBe('Not an EVM address: expected 0x followed by 40 hexadecimal characters.');
    expect(errors[1]!.message).toBe(`${W1} is already watched as "Treasury".`);
    expect(errors[2]!.message).toBe('The label contains an invisible control or text-direction character (U+202E); remove it.');
    expect(errors[5]!.message).toBe('A group named "ops" exists already.');
    for (const e of errors) expect(errorText(e)).toBe(e.message);
    setLocale('de-DE');
    setLanguage('de-DE');
    const said = errors.map(errorText);
    expect(said.filter((s) => ENGLISH.test(s))).toEqual([]);
    expect(said[0]).toBe('Keine EVM-Adresse: Erwartet wird 0x, gefolgt von 40 Hexadezimalzeichen.');
    expect(said[1]).toBe(`${W1} wird bereits beobachtet als „Treasury“.`);
    expect(said[5]).toBe('Eine Gruppe namens „ops“ gibt es bereits.');
    expect(said[9]).toMatch(/^Der Datenträger ist voll/);
    expect(said[12]).toBe(
      'Der Zugangsschlüssel ist zu kurz für ein Geheimnis: Folioscope braucht mindestens 12 Zeichen. Verwenden Sie den Schlüssel genau so, wie der Dienst ihn ausgegeben hat.',
    );
  });

  it('a wallets file: the file’s refusal and each row’s problem', () => {
    const db = createDB();
    const wallets = [addWallet(db, { address: W1, chains: ['eth'], label: 'Treasury' })];
    const file = sent(() => planWalletImport('wallet,name\nx,y\n', wallets, [], ['eth', 'arb']));
    expect(file.said?.code).toBe('import.badHeader');
    const csv = ['address,label,chains', `${W1},Ops,eth`, '0x12,Bad,eth', `${W2},,`, `${W2},Two,foo`, `${W2},Three,eth,extra`].join('\n');
    const rows = planWalletImport(csv, wallets, [], ['eth', 'arb']).preview.rows;
    expect(rows.map((r) => r.problemSaid?.code)).toEqual(['row.watchedAs', 'address.notEvm', 'row.noChain', 'chains.unknown', 'row.fields']);
    // English as before (lower case after the line number).
    expect(rows[1]!.problem).toBe('not an EVM address: expected 0x followed by 40 hexadecimal characters.');
    expect(rows.map(rowProblem)).toEqual(rows.map((r) => r.problem));
    setLocale('de-DE');
    setLanguage('de-DE');
    expect(errorText(file)).toMatch(/^Zeile 1 ist keine Kopfzeile einer Wallet-Liste: .*; keine Spalte: wallet, name\.$/);
    const german = rows.map(rowProblem);
    expect(german.filter((s) => ENGLISH.test(s))).toEqual([]);
    expect(german[0]).toBe('beobachtet als „Treasury“ (mit „Bezeichnungen der Datei übernehmen“ importieren, um die der Datei zu nehmen)');
  });

  it('a rule the schema refuses: its amounts, a number, a name with an invisible character', () => {
    const input = (conditions: object, name?: string) => ({ category: 'Fees', conditions, ...(name ? { name } : {}) });
    const refused = (v: unknown) => schemaError(CONTRACT['rules.save'].input.safeParse(v).error!.issues[0]!);
    const errors = [
      refused(input({ minAmount: 5, maxAmount: 1, token: 'USDC' })),
      refused(input({ minAmount: 5 })),
      refused(input({ minAmount: Number('abc'), token: 'USDC' })),
      refused(input({ minAmount: -1, token: 'USDC' })),
      refused(input({ direction: 'in' }, 'Fees\u202e')),
    ];
    expect(errors.map((e) => e.said?.code)).toEqual(['rule.amountOrder', 'rule.amountNeedsToken', 'input.notNumber', 'input.tooSmall', 'input.unsafe']);
    expect(errors[0]!.message).toBe('conditions.maxAmount: the largest amount is below the smallest');
    setLocale('de-DE');
    setLanguage('de-DE');
    expect(errors.map(errorText)).toEqual([
      'Die größte Menge des Tokens liegt unter der kleinsten.',
      'Ein Mengenbereich gilt für einen Token: Nennen Sie auch den Token.',
      'conditions.minAmount: keine Zahl',
      'conditions.minAmount: zu klein (mindestens 0)',
      'name: enthält ein unsichtbares Steuer- oder Textrichtungszeichen (U+202E); bitte entfernen.',
    ]);
  });
});
