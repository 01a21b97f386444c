/**
 * An address as the wallets table compares it: an EVM address in any case is the lower-case
 * one it is stored as; every other address (Solana's base58, Bitcoin's) is case-sensitive,
 * so two that differ only in case are two wallets and are never folded together.
 * A module of its own, free of imports: the write worker loads the store's modules as plain
 * type-stripped TypeScript (see write-worker.ts) and needs this without the rest.
 */
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

export function addressKey(address: string): string {
  return EVM_ADDRESS.test(address) ? address.toLowerCase() : address;
}
