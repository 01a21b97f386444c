import type { Transaction } from '../../src/shared/service/schemas.ts';

/** The counterparty of the store tests' plain transfers. */
export const COUNTERPARTY = '0x00000000000000000000000000000000000000cc';

/**
 * A transaction as the client hands it to the store, for store tests: a plain transfer on
 * eth from the wallet to COUNTERPARTY (block 1, no fees, no transfers, status 1), with
 * whatever `fields` says instead. Cast: tests also pass values the schema would refuse.
 */
export function transactionRow(fields: Partial<Record<keyof Transaction, unknown>>): Transaction {
  return {
    block: 1,
    from: fields.wallet_id,
    to: COUNTERPARTY,
    from_type: 'eoa',
    to_type: 'eoa',
    txn_fee: 0,
    gas_fee: 0,
    action_type: 'transfer',
    method_hex: null,
    protocol_id: null,
    chain_id: 'eth',
    date: null,
    details: [],
    status: 1,
    ...fields,
  } as unknown as Transaction;
}
