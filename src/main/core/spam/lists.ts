/**
 * Spam lists (docs/spam.md, "Lists"): tokens and addresses called spam or genuine, and symbol
 * patterns that are spam, in one documented JSON format. Folioscope ships one (default-list.json:
 * obvious URL and claim patterns, and the genuine Ethereum contracts of USDC, USDT, DAI, WETH and
 * WBTC); a user imports more (`folioscope spam lists import FILE`), kept in the cache.
 *
 * A file is read whole and checked before anything is kept: a fault names its line and member
 * ("line 12, tokens[3].cid: …") and nothing changes.
 */
import { z } from 'zod';
import type { SpamListInfo } from '../../../shared/spam.ts';
import { unsafeCharsProblem } from '../../../shared/text-safety.ts';
import { ValidationError } from '../store/validation.ts';
import defaults from './default-list.json' with { type: 'json' };
import { key, type Ruling } from './judge.ts';
import { jsonLines, JsonSyntaxError, pathText } from './json-lines.ts';
import { globTest } from './text.ts';

export const SPAM_LIST_FORMAT = 'folioscope-spam-list';
export const SPAM_LIST_VERSION = 1;
/** The shipped list's name, as `spam lists` shows it. */
export const DEFAULT_LIST_NAME = 'Folioscope defaults';

const safe = (what: string, max: number) =>
  z
    .string()
    .max(max, `${what} is too long (at most ${max} characters)`)
    .superRefine((v, ctx) => {
      const problem = unsafeCharsProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: `the ${what} ${problem}` });
    });
const chain = z
  .string()
  .max(64)
  .regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'expected a chain id (letters, digits, _ . : -)');
/** A contract or an address: an EVM one is 0x and 40 hex digits (kept in lower case); any other, printable ASCII without spaces. */
const target = z
  .string()
  .max(128, 'is too long (at most 128 characters)')
  .regex(/^[\x21-\x7e]{1,128}$/, 'expected an address (printable characters, no spaces)')
  .refine((v) => !/^0x/i.test(v) || /^0x[0-9a-fA-F]{40}$/.test(v), 'expected 0x and 40 hex digits')
  .transform((v) => key(v));
const verdict = z.enum(['spam', 'genuine']);
const note = safe('note', 500).optional();

const TokenEntry = z.strictObject({
  /** The service's chain id; null or absent: the contract on every chain. */
  chain: chain.nullable().optional(),
  cid: target,
  verdict,
  /** For people reading the file (and explanations); not matched. */
  symbol: safe('symbol', 64).optional(),
  note,
});
const AddressEntry = z.strictObject({
  chain: chain.nullable().optional(),
  address: target,
  verdict,
  note,
});
const PatternEntry = z.strictObject({
  /** A whole symbol or name in any case; `*` stands for any run of characters (at most 4). */
  pattern: safe('pattern', 64)
    .refine((p) => (p.match(/\*/g) ?? []).length <= 4, 'at most 4 "*" in a pattern')
    .refine((p) => p.replace(/\*/g, '').trim().length >= 2, 'a pattern needs at least 2 characters besides "*" (it would match every token)'),
  note,
});

export const SpamListV1 = z.strictObject({
  format: z.literal(SPAM_LIST_FORMAT).optional(),
  version: z.literal(SPAM_LIST_VERSION, { error: `expected version ${SPAM_LIST_VERSION}: the version of the list format this Folioscope reads` }),
  name: safe('name', 100).optional(),
  tokens: z
    .array(TokenEntry)
    .max(100_000, 'at most 100,000 tokens')
    .default(() => []),
  addresses: z
    .array(AddressEntry)
    .max(100_000, 'at most 100,000 addresses')
    .default(() => []),
  symbolPatterns: z
    .array(PatternEntry)
    .max(1_000, 'at most 1,000 patterns')
    .default(() => []),
});
export type SpamList = z.output<typeof SpamListV1>;

/** A list's first fault: where (a member's path, as `tokens[1].cid`; empty for the whole) and what. */
export interface SpamListFault {
  path: ReadonlyArray<PropertyKey>;
  message: string;
}

/**
 * Checks a list as read from JSON (a list file's, or one a data file carries): the list, or its
 * first fault. The format's rules, then one verdict per token and per address (two would leave
 * which one holds to chance).
 */
export function checkSpamList(value: unknown): { list: SpamList } | { fault: SpamListFault } {
  const parsed = SpamListV1.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { fault: { path: issue.path, message: issue.message } };
  }
  const list = parsed.data;
  const seen = new Map<string, string>();
  for (const [kind, entries] of [
    ['tokens', list.tokens.map((t) => `${t.chain ?? '*'}|${t.cid}`)],
    ['addresses', list.addresses.map((a) => `${a.chain ?? '*'}|${a.address}`)],
  ] as const)
    for (const [i, k] of entries.entries()) {
      const first = seen.get(`${kind}|${k}`);
      if (first) return { fault: { path: [kind, i], message: `the same entry as ${first}` } };
      seen.set(`${kind}|${k}`, `${kind}[${i}]`);
    }
  return { list };
}

/**
 * Reads a list file's text, or refuses it with where and what is wrong: the line and column of a
 * fault of JSON, the line and member of a value the format refuses. Nothing is kept here.
 */
export function readSpamList(text: string): SpamList {
  let lines: Map<string, number>;
  try {
    lines = jsonLines(text);
  } catch (err) {
    if (err instanceof JsonSyntaxError) throw new ValidationError('file', `This spam list is not JSON (${err.message}). Nothing was imported.`);
    throw err;
  }
  const checked = checkSpamList(JSON.parse(text.replace(/^\uFEFF/, '')));
  if ('list' in checked) return checked.list;
  const { path, message } = checked.fault;
  // The member's own line, or its nearest parent's (a member that is missing has none).
  let line: number | undefined;
  for (let n = path.length; n >= 0 && line === undefined; n--) line = lines.get(pathText(path.slice(0, n)));
  throw new ValidationError('file', `This spam list is not valid (line ${line ?? 1}, ${pathText(path) || 'the file'}: ${message}). Nothing was imported.`);
}

/**
 * The name a list is kept by, as given, or why it cannot be (the same rules for a list imported
 * from its file and one a data file carries): not empty, at most 100 characters, nothing invisible
 * or text-moving, and not the shipped list's.
 */
export function cleanListName(name: string): string {
  const chosen = name.trim();
  if (!chosen) throw new ValidationError('name', 'Name the list (the file has no "name"): it is kept, shown and replaced by its name.');
  if (chosen.length > 100) throw new ValidationError('name', 'The name is too long (at most 100 characters).');
  const problem = unsafeCharsProblem(chosen);
  if (problem) throw new ValidationError('name', `The name ${problem}.`);
  if (chosen.toLowerCase() === DEFAULT_LIST_NAME.toLowerCase())
    throw new ValidationError('name', `"${DEFAULT_LIST_NAME}" is the shipped list's name: give yours another.`);
  return chosen;
}

/** The shipped list, read as any list is (a test holds it to the format). */
export function defaultList(): SpamList {
  return SpamListV1.parse(defaults);
}

export function listCounts(list: SpamList): Pick<SpamListInfo, 'tokens' | 'addresses' | 'symbolPatterns'> {
  return { tokens: list.tokens.length, addresses: list.addresses.length, symbolPatterns: list.symbolPatterns.length };
}

interface Held {
  spam: boolean;
  list: string;
  note: string | undefined;
  what: string;
  /** What the entry is about, and a token's symbol: the values of its reason (a screen says it by them). */
  subject: 'token' | 'address';
  symbol: string | null;
}

/**
 * The loaded lists as one lookup, the first given first (the user's newest import, then older
 * ones, then the shipped list): a token's or an address's first entry decides, an entry for its
 * chain before one for every chain. A pattern only ever says spam.
 */
export class ListBook {
  private readonly tokens = new Map<string, Held>();
  private readonly addresses = new Map<string, Held>();
  private readonly patterns: Array<{ test: (s: string | null | undefined) => boolean; pattern: string; list: string; note: string | undefined }> = [];

  constructor(lists: ReadonlyArray<{ name: string; list: SpamList }>) {
    for (const { name, list } of lists) {
      for (const t of list.tokens) {
        const k = `${t.chain ?? '*'}|${t.cid}`;
        if (!this.tokens.has(k))
          this.tokens.set(k, {
            spam: t.verdict === 'spam',
            list: name,
            note: t.note,
            what: t.symbol ? `the token ${t.symbol}` : 'the token',
            subject: 'token',
            symbol: t.symbol ?? null,
          });
      }
      for (const a of list.addresses) {
        const k = `${a.chain ?? '*'}|${a.address}`;
        if (!this.addresses.has(k))
          this.addresses.set(k, { spam: a.verdict === 'spam', list: name, note: a.note, what: 'the address', subject: 'address', symbol: null });
      }
      for (const p of list.symbolPatterns) this.patterns.push({ test: globTest(p.pattern), pattern: p.pattern, list: name, note: p.note });
    }
  }

  private static ruling(h: Held): Ruling {
    return {
      spam: h.spam,
      code: h.spam ? 'list.spam' : 'list.genuine',
      text: `The list "${h.list}" calls ${h.what} ${h.spam ? 'spam' : 'genuine'}${h.note ? `: ${h.note}` : '.'}`,
      values: { list: h.list, subject: h.subject, symbol: h.symbol, note: h.note || null },
    };
  }

  /** The entry of a contract (its chain's, then every chain's) alone: what a protocol position is looked up by (patterns are for tokens' symbols). */
  contract(chain: string, cid: string): Ruling | null {
    const entry = this.tokens.get(`${chain}|${cid}`) ?? this.tokens.get(`*|${cid}`);
    return entry ? ListBook.ruling(entry) : null;
  }

  /** The entry of a token (its chain's, then every chain's), else the first pattern its symbol or name matches. */
  token(chain: string, cid: string, symbol: string | null, name: string | null): Ruling | null {
    const entry = this.contract(chain, cid);
    if (entry) return entry;
    for (const p of this.patterns)
      if (p.test(symbol) || p.test(name))
        return {
          spam: true,
          code: 'list.pattern',
          text: `Its ${p.test(symbol) ? 'symbol' : 'name'} matches "${p.pattern}" of the list "${p.list}"${p.note ? `: ${p.note}` : '.'}`,
          values: { field: p.test(symbol) ? 'symbol' : 'name', pattern: p.pattern, list: p.list, note: p.note || null },
        };
    return null;
  }

  /** Whether a list calls a token genuine (the evidence impersonation is judged against). */
  genuineToken(chain: string, cid: string): boolean {
    const entry = this.tokens.get(`${chain}|${cid}`) ?? this.tokens.get(`*|${cid}`);
    return entry !== undefined && !entry.spam;
  }

  address(chain: string, address: string): Ruling | null {
    const entry = this.addresses.get(`${chain}|${address}`) ?? this.addresses.get(`*|${address}`);
    return entry ? ListBook.ruling(entry) : null;
  }

  /**
   * The name of the list whose entry calls an address genuine, as `genuineAddresses` counts it
   * (its chain's entry first, then every chain's, then another chain's); null when none does.
   */
  genuineAddressList(chain: string, address: string): string | null {
    const entry = this.addresses.get(`${chain}|${address}`) ?? this.addresses.get(`*|${address}`);
    if (entry) return entry.spam ? null : entry.list;
    for (const [k, h] of this.addresses) if (!h.spam && k.slice(k.indexOf('|') + 1) === address) return h.list;
    return null;
  }

  /** The addresses a list calls genuine on a chain (or every chain): known counterparties. */
  genuineAddresses(): string[] {
    return [...this.addresses].filter(([, h]) => !h.spam).map(([k]) => k.slice(k.indexOf('|') + 1));
  }
}
