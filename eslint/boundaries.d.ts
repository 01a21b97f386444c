import type { ESLint } from 'eslint';

/** The layer a source file belongs to (`core`, `web-shell`, `renderer`, …), or null outside src/. */
export function layerOf(file: string): string | null;
/** The part of the core a file belongs to (`store`, `store/migrations`, `app.ts`, …), or null outside src/main/core. */
export function corePartOf(file: string): string | null;
/** Which other parts of the core each part may import (`'*'`: any). */
export const CORE_EDGES: Record<string, readonly string[] | '*'>;
/** The parts of the core open to every part (the store, its migrations, util); every other folder is entered through its index.ts. */
export const OPEN_PARTS: ReadonlySet<string>;
declare const plugin: ESLint.Plugin;
export default plugin;
