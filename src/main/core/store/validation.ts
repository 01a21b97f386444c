import { isoDateToUtcMs } from '../../../shared/dates.ts';

/** A user input the app cannot accept: which field, and what to do about it. */
export class ValidationError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'ValidationError';
  }
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
  if (typeof input !== 'string' || input.length === 0) throw new ValidationError('address', 'Enter a wallet address.');
  if (input.trim() !== input || /\s/.test(input)) {
    throw new ValidationError('address', 'The address contains spaces; paste it without spaces or line breaks.');
  }
  if (input.length > MAX_ADDRESS_LENGTH) throw new ValidationError('address', `The address is too long (at most ${MAX_ADDRESS_LENGTH} characters).`);
  if (!/^[\x21-\x7e]+$/.test(input)) throw new ValidationError('address', 'The address may only contain printable ASCII characters.');
  if (chains.some(isEvmChain)) {
    if (!/^0x[0-9a-fA-F]{40}$/.test(input)) {
      throw new ValidationError('address', 'Not an EVM address: expected 0x followed by 40 hexadecimal characters.');
    }
    return input.toLowerCase();
  }
  return input;
}

export function normaliseChains(chains: readonly string[]): string[] {
  const out = [...new Set(chains.map((c) => c.trim()).filter(Boolean))];
  if (out.length === 0) throw new ValidationError('chains', 'Choose at least one chain.');
  for (const c of out) {
    if (!/^[A-Za-z0-9_.:-]{1,64}$/.test(c)) throw new ValidationError('chains', `"${c}" is not a chain id (letters, digits, _ . : - only).`);
  }
  return out;
}

/** YYYY-MM-DD, a real calendar date. */
export function checkDate(field: string, value: string): string {
  if (isoDateToUtcMs(value) === null) throw new ValidationError(field, `"${value}" is not a date: use YYYY-MM-DD.`);
  return value;
}
