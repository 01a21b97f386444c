/**
 * What the wallet form checks before asking the core (which checks again, authoritatively):
 * quick, local messages while typing, in the same words as the core's.
 */
export interface WalletFormErrors {
  address?: string;
  label?: string;
  tags?: string;
  chains?: string;
  form?: string;
}

export function checkWalletForm(v: { address: string; chains: string[] }): WalletFormErrors {
  const errors: WalletFormErrors = {};
  const a = v.address;
  if (!a.trim()) errors.address = 'Enter a wallet address.';
  else if (/\s/.test(a.trim())) errors.address = 'The address contains spaces; paste it without spaces or line breaks.';
  else if (a.trim().startsWith('0x') && !/^0x[0-9a-fA-F]{40}$/.test(a.trim()))
    errors.address = 'Not an EVM address: expected 0x followed by 40 hexadecimal characters.';
  if (!v.chains.length) errors.chains = 'Choose at least one chain.';
  return errors;
}
