import { type CoreCode, type CoreCodeValues, type CoreSaid, coded } from '../../../shared/core-codes.ts';
import { isoDateToUtcMs } from '../../../shared/dates.ts';

/**
 * A user input the app cannot accept: which field, and what to do about it. One a screen shows
 * carries its code and values (`said`), so a screen in another language can say it.
 */
export class ValidationError extends Error {
  constructor(
    readonly field: string,
    message: string,
    readonly said?: CoreSaid,
  ) {
    super(message);
    this.name = 'ValidationError';
  }
}

/**
 * An edit made on a version of a record someone has changed since (store/versions.ts): sent as
 * kind `conflict` (HTTP 409 on the web shell), its message naming who changed it and when.
 */
export class StaleEditError extends ValidationError {
  constructor(field: string, code: 'edit.stale', values: CoreCodeValues['edit.stale']) {
    const { message, said } = coded(code, values);
    super(field, message, said);
    this.name = 'StaleEditError';
  }
}

/** A refusal with its code and values, its message the English of them (shared/core-codes.ts). */
export function refusal<K extends CoreCode>(field: string, code: K, values: CoreCodeValues[K]): ValidationError {
  const { message, said } = coded(code, values);
  return new ValidationError(field, message, said);
}

/**
 * Chains whose addresses are not 0x-prefixed 40-hex. Every other chain id is treated as
 * EVM-style, which all of the reference service's chains are.
 */
const NON_EVM_CHAINS = new Set([
  'btc',
  'bitcoin',
  'sol',
  'solana',
  'tron',
  'trx',
  'cosmos',
  'atom',
  'ton',
  'aptos',
  'sui',
  'near',
  'ada',
  'cardano',
  'xrp',
  'doge',
]);

export function isEvmChain(chain: string): boolean {
  return !NON_EVM_CHAINS.has(chain.toLowerCase());
}

const MAX_ADDRESS_LENGTH = 128;

/**
 * Validates a wallet address for the chains it is watched on, and returns its canonical
 * form (EVM addresses in lower case, as the service reports them).
 */
export function normaliseAddress(input: string, chains: readonly string[]): string {
  if (typeof input !== 'string' || input.length === 0) throw refusal('address', 'address.empty', {});
  if (input.trim() !== input || /\s/.test(input)) throw refusal('address', 'address.spaces', {});
  if (input.length > MAX_ADDRESS_LENGTH) throw refusal('address', 'address.tooLong', { max: MAX_ADDRESS_LENGTH });
  if (!/^[\x21-\x7e]+$/.test(input)) throw refusal('address', 'address.notAscii', {});
  if (chains.some(isEvmChain)) {
    if (!/^0x[0-9a-fA-F]{40}$/.test(input)) throw refusal('address', 'address.notEvm', {});
    return input.toLowerCase();
  }
  return input;
}

export function normaliseChains(chains: readonly string[]): string[] {
  const out = [...new Set(chains.map((c) => c.trim()).filter(Boolean))];
  if (out.length === 0) throw refusal('chains', 'chains.none', {});
  for (const c of out) {
    if (!/^[A-Za-z0-9_.:-]{1,64}$/.test(c)) throw refusal('chains', 'chains.badId', { chain: c });
  }
  return out;
}

/** YYYY-MM-DD, a real calendar date. */
export function checkDate(field: string, value: string): string {
  if (isoDateToUtcMs(value) === null) throw refusal(field, 'date.invalid', { value });
  return value;
}
