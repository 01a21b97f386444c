/**
 * What a token's symbol or name says of it (docs/spam.md, "Reasons"): a URL or a domain, bait
 * words, an amount of money, emoji, a `$` prefix, letters from another script that look Latin.
 * Pure: the judge (judge.ts) gives each a weight.
 *
 * A spammer writes its pitch where a wallet shows it, the symbol and the name; a genuine token
 * has no use for a domain or "claim" there. Each check is on bounded text (a symbol can be long
 * spam), and none backtracks on what it is given.
 */

/** The longest text looked at: spam symbols run to a sentence; nothing genuine is longer. */
const MAX_TEXT = 300;
const bounded = (s: string | null | undefined) => (s ?? '').slice(0, MAX_TEXT);

/**
 * A link or a domain. Top-level domains a genuine token name has carried are left out (`.fi` of
 * "Curve.fi DAI/USDC/USDT", `.finance` of "yearn.finance"), so a domain ending in them counts only
 * with `http`, `www.` or a `/` after it.
 */
const URL_LIKE =
  /https?:\/\/|www\.|t\.me\/|\b[a-z0-9-]+\.(?:com|io|xyz|net|org|app|site|top|vip|cc|me|live|online|fun|club|link|click|gift|gifts|claims?|pro|to|ly|co|info|biz|us|tk|ml|ga|cf|gq|win|lol|bet|cash|today|world|events|zone|tech|store|shop|bond|sbs|icu|cyou|homes|rest|buzz|pw|ws|su|ru)\b|\b[a-z0-9-]+\.[a-z]{2,12}\//i;
/** Words that ask the reader to act or promise a gift: what an airdrop pitch says. */
const BAIT = /\b(?:claim|claims|claimable|reward|rewards|airdrop|airdrops|visit|voucher|bonus|gift|redeem|eligible|winner|prize|giveaway|whitelist)\b/i;
/** An amount of money: "$500", "5,000$", "1000 USDC". */
const AMOUNT = /\$\s?\d|\d[\d,]*(?:\.\d+)?\s?\$|\b\d[\d,]{2,}(?:\.\d+)?\s+(?:usdc|usdt|dai|eth|weth|btc|wbtc|bnb|usd)\b/i;
const EMOJI = /\p{Extended_Pictographic}/u;
/** Characters that show nothing or move text (zero-width, joiners, bidi controls, variation selectors): a symbol made to read as another. */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/u;
const INVISIBLE_ALL = /\p{Default_Ignorable_Code_Point}/gu;

/**
 * Letters of other scripts drawn like Latin ones (Cyrillic and Greek capitals and small letters,
 * full-width forms are folded by NFKC first): "UЅDС" is USDC to the eye, not to a comparison.
 */
const CONFUSABLES: Readonly<Record<string, string>> = {
  А: 'A',
  В: 'B',
  Е: 'E',
  Ё: 'E',
  К: 'K',
  М: 'M',
  Н: 'H',
  О: 'O',
  Р: 'P',
  С: 'C',
  Т: 'T',
  Х: 'X',
  У: 'Y',
  Ѕ: 'S',
  І: 'I',
  Ј: 'J',
  Ԁ: 'D',
  Ԛ: 'Q',
  Ԝ: 'W',
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  х: 'x',
  у: 'y',
  ѕ: 's',
  і: 'i',
  ј: 'j',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  ʏ: 'y',
  Α: 'A',
  Β: 'B',
  Ε: 'E',
  Ζ: 'Z',
  Η: 'H',
  Ι: 'I',
  Κ: 'K',
  Μ: 'M',
  Ν: 'N',
  Ο: 'O',
  Ρ: 'P',
  Τ: 'T',
  Υ: 'Y',
  Χ: 'X',
  α: 'a',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  ν: 'v',
  κ: 'k',
  ι: 'i',
};
const CONFUSABLE = new RegExp(`[${Object.keys(CONFUSABLES).join('')}]`, 'u');
const CONFUSABLE_ALL = new RegExp(CONFUSABLE.source, 'gu');

/** A symbol or name as compared with another: NFKC, look-alike letters made Latin, invisible characters dropped, trimmed, upper case. */
export function comparable(s: string | null | undefined): string {
  return bounded(s)
    .normalize('NFKC')
    .replace(CONFUSABLE_ALL, (c) => CONFUSABLES[c] ?? c)
    .replace(INVISIBLE_ALL, '')
    .trim()
    .toUpperCase();
}

export interface TextSignals {
  url: boolean;
  bait: boolean;
  amount: boolean;
  emoji: boolean;
  dollar: boolean;
  confusable: boolean;
}

/** What a symbol or name says; each test on at most MAX_TEXT characters. */
export function textSignals(s: string | null | undefined): TextSignals {
  const t = bounded(s).normalize('NFKC');
  return {
    url: URL_LIKE.test(t),
    bait: BAIT.test(t),
    amount: AMOUNT.test(t),
    emoji: EMOJI.test(t),
    dollar: t.trimStart().startsWith('$'),
    confusable: INVISIBLE.test(bounded(s)) || (CONFUSABLE.test(t) && /[A-Za-z]/.test(t.replace(CONFUSABLE_ALL, ''))) || isAllConfusable(t),
  };
}

/** A text written wholly in look-alike letters ("ЕТН"): it reads as a Latin word and is none. */
function isAllConfusable(t: string): boolean {
  const letters = [...t].filter((c) => /\p{L}/u.test(c));
  return letters.length > 0 && letters.every((c) => Object.hasOwn(CONFUSABLES, c));
}

/**
 * A list's symbol pattern (lists.ts checks it: at most 64 characters, at most 4 `*`), as a test
 * of a whole symbol or name in any case: `*` any run of characters, everything else itself.
 * Matched by the two-pointer wildcard walk (linear in practice, never the exponential
 * backtracking a regular expression of several `.*` can fall into on a long spam symbol).
 */
export function globTest(pattern: string): (s: string | null | undefined) => boolean {
  const p = pattern.toLowerCase();
  return (subject) => {
    const s = bounded(subject).toLowerCase();
    let i = 0;
    let j = 0;
    let star = -1;
    let mark = 0;
    while (i < s.length) {
      if (j < p.length && p[j] !== '*' && p[j] === s[i]) {
        i++;
        j++;
      } else if (j < p.length && p[j] === '*') {
        star = j++;
        mark = i;
      } else if (star >= 0) {
        j = star + 1;
        i = ++mark;
      } else return false;
    }
    while (j < p.length && p[j] === '*') j++;
    return j === p.length;
  };
}
