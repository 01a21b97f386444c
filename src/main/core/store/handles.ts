import type { Database } from 'better-sqlite3-multiple-ciphers';

/**
 * The handles the store's functions take, branded in the manner of Signal-Desktop's
 * `ReadableDB`/`WritableDB` (ts/sql/Interface.ts): a read function takes a `ReadableDB`, a
 * write function a `WritableDB`. A `WritableDB` is also a `ReadableDB`, never the reverse, so
 * code handed only a `ReadableDB` (the reports) cannot call a write function: the type check
 * refuses it. The brands exist only in types; at run time both are the same connection.
 * A handle gets its brand where it is opened (`openDatabase`, the read-only copy).
 */
export type ReadableDB = Database & { readonly __readableDB: never };
export type WritableDB = ReadableDB & { readonly __writableDB: never };
