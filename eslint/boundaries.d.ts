import type { ESLint } from 'eslint';

/** The layer a source file belongs to (`core`, `web-shell`, `renderer`, …), or null outside src/. */
export function layerOf(file: string): string | null;
declare const plugin: ESLint.Plugin;
export default plugin;
