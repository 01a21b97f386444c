/**
 * An alert's title and detail as the inbox shows them: written here from the figures the core
 * stored with it (`facts`), in the app's number and date format, rather than the core's text
 * (English decimals and ISO dates, kept for the CLI, the webhook and notifications). An alert
 * whose figures are not all there, or not of the expected types, shows the core's text.
 */
import type { Alert, AlertRule, ScheduleScope } from '../../../shared/model.ts';
import { asTyped, chain, date, dateTime, integer, pct, qty, ratio, safe, shortAddress, signedPct, usd } from './format.ts';
import { words } from './words.ts';

export interface AlertNames {
  /** A watched wallet's label, or null (none, or no longer watched). */
  walletLabel: (address: string) => string | null;
  /** A scope in words ("all wallets", "Group: Fund I"). */
  scope: (scope: ScheduleScope) => string;
}

type Facts = Alert['facts'];
const DAY_MS = 86_400_000;

/** Reads the facts a text needs; undefined when one is missing or of another type. */
function read<K extends string>(facts: Facts, strings: readonly K[], numbers: readonly K[]): Record<K, string | number> | undefined {
  const out = {} as Record<K, string | number>;
  for (const k of strings) {
    const v = facts[k];
    if (typeof v !== 'string') return undefined;
    out[k] = v;
  }
  for (const k of numbers) {
    const v = facts[k];
    if (typeof v !== 'number' || !Number.isFinite(v)) return undefined;
    out[k] = v;
  }
  return out;
}
const optionalString = (facts: Facts, k: string) => (typeof facts[k] === 'string' ? (facts[k] as string) : null);
const optionalNumber = (facts: Facts, k: string) => (typeof facts[k] === 'number' && Number.isFinite(facts[k]) ? (facts[k] as number) : null);

export function alertText(a: Alert, names: AlertNames): { title: string; detail: string } {
  return localText(a, names) ?? { title: a.title, detail: a.detail };
}

/**
 * What a payment sent, as the core writes it ("4513.199684 UNI, 12 USDC": English decimals), in
 * the app's number format; a part it cannot read is shown as it is.
 */
function sentText(sent: string | null): string {
  if (!sent) return '';
  return sent
    .split(', ')
    .map((part) => {
      const m = /^(-?\d+(?:\.\d+)?(?:e[-+]?\d+)?) (.+)$/.exec(part);
      return m ? `${qty(Number(m[1]))} ${safe(m[2])}` : safe(part);
    })
    .join(', ');
}

/**
 * What a rule's last check found, in the app's language and number and date format, from the
 * figures the core stored with it; a check recorded before those figures shows the core's note.
 */
export function checkNote(check: NonNullable<AlertRule['lastCheck']>, names: Pick<AlertNames, 'walletLabel'>): string {
  const f = check.facts;
  const t = words.alerts.check;
  const walletChains = (pairs: readonly string[]) =>
    pairs
      .slice(0, 5)
      .map((pair) => {
        const [address = '', id = ''] = pair.split('|');
        return t.walletChain(safe(names.walletLabel(address)) || shortAddress(address), chain(id));
      })
      .join(', ');
  const said = (() => {
    switch (f?.kind) {
      case undefined:
        return null;
      case 'no-wallets':
        return t.noWallets;
      case 'not-checked':
        return t.notChecked(safe(f.why));
      case 'outflows':
        return t.outflows(f.count, safe(f.symbol), asTyped(f.above));
      case 'new-counterparties':
        return t.newCounterparties(f.count);
      case 'positions':
        return (
          t.positions(f.what === 'health', f.checked, f.holds) +
          (f.notCached.length ? t.notCached(walletChains(f.notCached), Math.max(0, f.notCached.length - 5)) : '') +
          (f.unreadable.length ? t.unreadable(walletChains(f.unreadable)) : '')
        );
      case 'nav-none':
        return t.navNone;
      case 'nav-partial':
        return t.navPartial(date(f.date), f.cached, f.watched);
      case 'nav-one':
        return t.navOne(date(f.date));
      case 'nav-unknown':
        return t.navUnknown(date(f.from), date(f.to));
      case 'nav-move':
        return t.navMove(date(f.from), date(f.to), signedPct(f.percent), f.skipped);
      case 'stale':
        return t.stale(f.wallets, f.holds, f.hours);
      default:
        return null;
    }
  })();
  if (said === null) return safe(check.note);
  return check.waiting ? said + t.waiting(check.waiting) : said;
}

/** Whether an alert is of high severity (a payment to a lookalike address: money may have gone to the wrong address). */
export function isHigh(a: Alert): boolean {
  return a.facts['severity'] === 'high';
}

function localText(a: Alert, names: AlertNames): { title: string; detail: string } | undefined {
  const f = a.facts;
  const t = words.alerts.text;
  const label = (address: string) => {
    const l = names.walletLabel(address);
    return l ? safe(l) : null;
  };
  /** "Treasury (0x5a0b…)", as the core names a wallet in a detail. */
  const wallet = (address: string) => {
    const l = label(address);
    return l ? `${l} (${address})` : address;
  };
  switch (a.kind) {
    case 'closed-period-changed':
      // The core's text names the period and what changed (transaction hashes, views, edits): shown as it is.
      return undefined;
    case 'health': {
      const v = read(f, ['wallet', 'chain', 'cid', 'date'], ['health', 'collateralDebtRatio', 'liqThreshold', 'below']);
      if (!v) return undefined;
      const position = safe(optionalString(f, 'position') ?? (v.cid as string));
      // Three digits, or as many as it takes to read below the threshold ("1.0849 below 1.085", not "1.085 below 1.085").
      let digits = 3;
      while (digits < 8 && Number((v.health as number).toFixed(digits)) >= (v.below as number)) digits++;
      const health = ratio(v.health as number, digits);
      return {
        // The rule's own figures as typed, every digit: rounding them would misstate the rule.
        title: t.health(health, asTyped(v.below as number), position),
        detail: t.healthDetail(
          position,
          wallet(v.wallet as string),
          chain(v.chain as string),
          date(v.date as string),
          ratio(v.collateralDebtRatio as number),
          ratio(v.liqThreshold as number),
          health,
        ),
      };
    }
    case 'unlock': {
      const v = read(f, ['wallet', 'chain', 'unlockTime', 'date'], []);
      if (!v) return undefined;
      // Days from the check that fired it (firedAt is that check's time), as the core counted them.
      const days = Math.ceil((Date.parse(v.unlockTime as string) - Date.parse(a.firedAt)) / DAY_MS);
      if (!Number.isFinite(days)) return undefined;
      const amount = optionalNumber(f, 'qty');
      const symbol = safe(optionalString(f, 'symbol'));
      const position = safe(optionalString(f, 'position'));
      return {
        title: t.unlock(integer(days), days === 1, amount === null ? null : qty(amount), symbol, position),
        detail: t.unlockDetail(
          amount === null ? null : qty(amount),
          symbol,
          position,
          wallet(v.wallet as string),
          chain(v.chain as string),
          dateTime(v.unlockTime as string),
          date(v.date as string),
        ),
      };
    }
    case 'nav-move': {
      const v = read(f, ['from', 'to'], ['navFrom', 'navTo', 'movePercent', 'percent']);
      if (!v) return undefined;
      const kind = optionalString(f, 'scope');
      const group = optionalNumber(f, 'group');
      const scope =
        kind === 'all'
          ? names.scope({ kind: 'all' })
          : kind === 'wallet' && a.wallet
            ? names.scope({ kind: 'wallet', address: a.wallet })
            : kind === 'group' && group !== null
              ? names.scope({ kind: 'group', id: group })
              : null;
      const move = v.movePercent as number;
      return {
        title: t.navMove(move >= 0, pct(Math.abs(move)), pct(v.percent as number, 12)),
        detail: t.navMoveDetail(scope, usd(v.navFrom as number), date(v.from as string), usd(v.navTo as number), date(v.to as string)),
      };
    }
    case 'outflow': {
      const v = read(f, ['wallet', 'chain', 'txnHash', 'time', 'symbol'], ['qty', 'above']);
      if (!v) return undefined;
      const symbol = safe(v.symbol as string);
      return {
        title: t.outflow(qty(v.qty as number), symbol, asTyped(v.above as number)),
        detail: t.outflowDetail(
          wallet(v.wallet as string),
          qty(v.qty as number),
          symbol,
          chain(v.chain as string),
          optionalString(f, 'to'),
          dateTime(v.time as string),
          v.txnHash as string,
        ),
      };
    }
    case 'new-counterparty': {
      const v = read(f, ['wallet', 'chain', 'txnHash', 'time', 'to'], []);
      if (!v) return undefined;
      return {
        title: t.newCounterparty(v.to as string),
        detail: t.newCounterpartyDetail(
          wallet(v.wallet as string),
          safe(optionalString(f, 'symbols')),
          chain(v.chain as string),
          v.to as string,
          dateTime(v.time as string),
          v.txnHash as string,
        ),
      };
    }
    case 'address-poisoning': {
      // Both addresses whole (what the user compares with the intended one), what they share, the transaction.
      const v = read(f, ['wallet', 'chain', 'txnHash', 'time', 'lookalike', 'imitates', 'prefix', 'suffix'], []);
      if (!v) return undefined;
      return {
        title: t.poisoning(v.lookalike as string),
        detail: t.poisoningDetail(
          wallet(v.wallet as string),
          sentText(optionalString(f, 'sent')),
          chain(v.chain as string),
          v.lookalike as string,
          v.imitates as string,
          v.prefix as string,
          v.suffix as string,
          dateTime(v.time as string),
          v.txnHash as string,
        ),
      };
    }
    case 'stale': {
      const address = optionalString(f, 'wallet');
      const hours = optionalNumber(f, 'hours');
      if (!address || hours === null) return undefined;
      const short = label(address) ?? address;
      const since = optionalString(f, 'incompleteSince');
      if (since) {
        const v = read(f, [], ['openRanges', 'anomalies']);
        if (!v) return undefined;
        const ranges = v.openRanges as number;
        const anomalies = v.anomalies as number;
        return {
          title: t.incomplete(integer(hours), short),
          detail: t.incompleteDetail(wallet(address), dateTime(since), integer(ranges), ranges === 1, integer(anomalies), anomalies === 1),
        };
      }
      const what = optionalString(f, 'what');
      const age = optionalNumber(f, 'ageHours');
      if ((what !== 'positions' && what !== 'transactions') || age === null) return undefined;
      const last = optionalString(f, 'lastSynced');
      return {
        title: t.stale(what, integer(age), short),
        detail: t.staleDetail(wallet(address), what, last === null ? null : dateTime(last), integer(hours)),
      };
    }
  }
}
