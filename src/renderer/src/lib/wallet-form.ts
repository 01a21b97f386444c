/**
 * What the wallet form checks before asking the core (which checks again, authoritatively):
 * quick, local messages while typing, in the same words as the core's.
 */
import { words } from './words.ts';

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
  if (!a.trim()) errors.address = words.walletForm.enterAddress;
  else if (/\s/.test(a.trim())) errors.address = words.walletForm.spaces;
  else if (a.trim().startsWith('0x') && !/^0x[0-9a-fA-F]{40}$/.test(a.trim())) errors.address = words.walletForm.notEvm;
  if (!v.chains.length) errors.chains = words.walletForm.chooseChain;
  return errors;
}
