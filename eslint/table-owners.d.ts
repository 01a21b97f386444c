/** Every table the migrations leave, and the part of the core that owns it. */
export const TABLE_OWNERS: Readonly<Record<string, string>>;
/** Who else may name a table (a part or a file of the core), by the owners whose tables it reads. */
export const TABLE_READERS: Readonly<Record<string, readonly string[]>>;
/** The tables a piece of source names in its SQL (string and template literals only). */
export function tablesNamed(file: string, text: string): string[];
/** Every `file: table (owner)` under a folder laid out as src/main/core where SQL names a table outside its owner. */
export function tablesOutsideOwners(core: string): string[];
