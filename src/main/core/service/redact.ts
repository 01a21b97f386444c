import { ACCESS_KEY_PARAM } from '../../../shared/service/endpoints.ts';

/** The URL with the access key's value replaced, fit for logs and error messages. */
export function redactUrl(url: string | URL): string {
  const u = new URL(String(url));
  if (u.searchParams.has(ACCESS_KEY_PARAM)) u.searchParams.set(ACCESS_KEY_PARAM, 'REDACTED');
  u.username = '';
  u.password = '';
  return u.toString();
}

/**
 * Any text with every spelling of the secret removed. A server can write back the key it was
 * sent in many ways: as sent (URLSearchParams: space as `+`, `~!'()` percent-escaped), as
 * `encodeURIComponent` writes it, re-encoded with lower-case escapes, encoded twice (`%253D`),
 * inside JSON (`\u` escapes in either case, `\/`, escaped again inside a quoted JSON text), as
 * HTML entities, in another letter case. One regular expression built from the key matches
 * them all, each character of the key in any of its spellings, mixed.
 */
export function redactText(text: string, secret: string | null | undefined): string {
  if (!secret) return text;
  const pattern = secretPattern(secret);
  // A key whose pattern cannot be compiled (the key rules keep every key that can be used
  // compilable): nothing of the text can be shown safely, so none of it is.
  if (!pattern) return WITHHELD;
  try {
    return text.replace(pattern, 'REDACTED');
  } catch {
    return WITHHELD;
  }
}

/** What stands for a text that could not be scrubbed of a key. */
export const WITHHELD = '(text withheld: it could not be checked for the access key)';

/** `redactText` for one key; `numeric` when a JSON number could print as it (`1.23456789012e11`). */
export type Redactor = ((text: string) => string) & { readonly numeric: boolean };

export function redactorFor(secret: string | null | undefined): Redactor {
  return Object.assign((text: string) => redactText(text, secret), { numeric: !!secret && /^[-+.0-9eE]+$/.test(secret) });
}

// A client sends one key at a time (two while a key is replaced): the last few patterns are kept.
const patterns = new Map<string, RegExp>();

function secretPattern(secret: string): RegExp | null {
  let pattern = patterns.get(secret);
  if (!pattern) {
    // Case-insensitive: hex digits of escapes come in either case, and a key echoed in another
    // case is still the key. A compile error's message holds the whole pattern, the key
    // spelled out: it is never passed on.
    // V8 compiles an expression when it first runs, so it is run once here, on nothing.
    try {
      pattern = new RegExp([...secret].map(spellingsOf).join(''), 'gi');
      pattern.test('');
    } catch {
      return null;
    }
    if (patterns.size >= 4) patterns.delete(patterns.keys().next().value!);
    patterns.set(secret, pattern);
  }
  pattern.lastIndex = 0;
  return pattern;
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
const hex = (n: number, width: number): string => n.toString(16).padStart(width, '0');

/** HTML's names for ASCII punctuation (HTML5), beyond numeric references. */
const ENTITY: Readonly<Record<string, string>> = {
  '!': 'excl',
  '"': 'quot',
  '#': 'num',
  $: 'dollar',
  '%': 'percnt',
  '&': 'amp',
  "'": 'apos',
  '(': 'lpar',
  ')': 'rpar',
  '*': 'ast',
  '+': 'plus',
  ',': 'comma',
  '.': 'period',
  '/': 'sol',
  ':': 'colon',
  ';': 'semi',
  '<': 'lt',
  '=': 'equals',
  '>': 'gt',
  '?': 'quest',
  '@': 'commat',
  '[': 'lsqb',
  '\\': 'bsol',
  ']': 'rsqb',
  '^': 'Hat',
  _: 'lowbar',
  '`': 'grave',
  '{': 'lcub',
  '|': 'vert',
  '}': 'rcub',
};
const JSON_SHORT: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't' };

/**
 * One character (a code point) as it can be written in a text: itself; a JSON escape behind
 * one or more backslashes (a JSON text quoted inside another doubles them); an HTML character
 * reference or entity, its `&` possibly escaped again as `&amp;`. Every repetition is bounded
 * (a few levels of quoting): unbounded, a long run of backslashes from a hostile server would
 * take time quadratic in its length.
 */
function written(ch: string): string {
  const cp = ch.codePointAt(0)!;
  const alts = [escapeRegExp(ch)];
  const units: string[] = [];
  for (let i = 0; i < ch.length; i++) units.push(`\\\\{1,8}u${hex(ch.charCodeAt(i), 4)}`);
  alts.push(units.join(''));
  const short = JSON_SHORT[ch];
  if (short) alts.push(`\\\\{1,8}${escapeRegExp(short)}`);
  alts.push(`&(?:amp;){0,4}#x0{0,6}${hex(cp, 1)};`, `&(?:amp;){0,4}#0{0,6}${cp};`);
  const name = ENTITY[ch];
  // The four HTML names browsers read without their semicolon too.
  if (name) alts.push(`&(?:amp;){0,4}${name}${['amp', 'lt', 'gt', 'quot'].includes(name) ? ';?' : ';'}`);
  return `(?:${alts.join('|')})`;
}

/** A byte percent-encoded, the `%` itself encoded again up to four times (`%2F`, `%252F`). */
function percent(byte: number): string {
  const [hi, lo] = hex(byte, 2);
  return `${written('%')}(?:${written('2')}${written('5')}){0,4}${written(hi!)}${written(lo!)}`;
}

const utf8 = new TextEncoder();

/** Every spelling of one character of the key a server can write back. */
function spellingsOf(ch: string): string {
  const cp = ch.codePointAt(0)!;
  const alts = [written(ch), [...utf8.encode(ch)].map(percent).join('')];
  // Form encoding writes a space as `+`; a server that decodes twice turns a `+` into a space.
  if (ch === ' ') alts.push(written('+'), percent(0x2b));
  if (ch === '+') alts.push(written(' '));
  // Latin-1 escapes and JavaScript's legacy escape() (`%E9`, `%u20AC`).
  if (cp >= 0x80 && cp <= 0xff) alts.push(percent(cp));
  if (cp >= 0x100 && cp <= 0xffff) alts.push(`${written('%')}${written('u')}${[...hex(cp, 4)].map(written).join('')}`);
  return `(?:${alts.join('|')})`;
}

/** A parsed JSON value with the secret removed from every string in it, member names included. */
export function redactJson(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((v) => redactJson(v, redact));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [redact(k), redactJson(v, redact)]));
  }
  return value;
}

/** Whether any string of a parsed JSON value (member names included) still holds the secret. */
export function jsonHoldsSecret(value: unknown, redact: (text: string) => string): boolean {
  if (typeof value === 'string') return redact(value) !== value;
  if (Array.isArray(value)) return value.some((v) => jsonHoldsSecret(v, redact));
  if (value !== null && typeof value === 'object') return Object.entries(value).some(([k, v]) => redact(k) !== k || jsonHoldsSecret(v, redact));
  return false;
}

/** A data value (not free text) of a response held the secret: where, as a JSON path with the secret removed. */
export class SecretInDataError extends Error {
  constructor(readonly path: ReadonlyArray<string | number>) {
    super('a data value holds the access key');
    this.name = 'SecretInDataError';
  }
}

/**
 * A parsed JSON value with the secret removed from every free-text string and member name, or
 * the value itself (the same reference) when nothing held it. A value that is data rather than
 * free text (`isData` of its path, and every number) is never rewritten: holding the secret,
 * it throws SecretInDataError, naming where.
 */
export function scrubJson(
  value: unknown,
  redact: (text: string) => string,
  isData: (path: ReadonlyArray<string | number>) => boolean,
  path: Array<string | number> = [],
): unknown {
  if (typeof value === 'string') {
    const out = redact(value);
    if (out !== value && isData(path)) throw new SecretInDataError([...path]);
    return out;
  }
  if (typeof value === 'number') {
    if (redact(String(value)) !== String(value)) throw new SecretInDataError([...path]);
    return value;
  }
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      path.push(i);
      const out = scrubJson(value[i], redact, isData, path);
      path.pop();
      if (out !== value[i]) (copy ??= [...value])[i] = out;
    }
    return copy ?? value;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    let changed = false;
    const out = entries.map(([k, v]): [string, unknown] => {
      const name = redact(k);
      path.push(name);
      const scrubbed = scrubJson(v, redact, isData, path);
      path.pop();
      if (name !== k || scrubbed !== v) changed = true;
      return [name, scrubbed];
    });
    return changed ? Object.fromEntries(out) : value;
  }
  return value;
}
