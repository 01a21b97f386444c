/**
 * The counterparties capability's public face: what the rest of the core may use of it (the lint's walls,
 * eslint/boundaries.js, refuse an import of its other files from outside it).
 */
export { CSV_COLUMNS, csvLine, list as csvList, parseCsvRecords, readOurs, unneutralise } from './csv.ts';
export { chainOrRefuse } from './chains.ts';
export { cleanEntry, sameEntry } from './entry.ts';
export { counterpartyHandlers } from './handlers.ts';
export { counterpartyKind, counterpartyNamer, partiesOf } from './namer.ts';
export type { CounterpartyNamer } from './namer.ts';
export { addressesNamed, listCounterparties, writeCounterparty } from './store/counterparties.ts';
export type { CounterpartyEntry } from './store/counterparties.ts';
