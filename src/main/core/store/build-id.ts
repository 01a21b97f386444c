/**
 * Which code this is, beyond its version number: what an answer kept in the file is marked by
 * (portfolio/store/answers.ts), so figures made by other code are never given, though the version
 * (package.json) stays the same from commit to commit while the app is developed.
 *
 * A built app has it fixed at build time (electron.vite.config.ts defines __FOLIOSCOPE_BUILD__ as
 * sourceHash of its sources). A core run from its sources (tests, development) hashes them itself,
 * once, on first use.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

declare const __FOLIOSCOPE_BUILD__: string | undefined;

/** The hash of every TypeScript file under `src/main` and `src/shared` of `root`: their paths and contents. */
export function sourceHash(root: string): string {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else if (e.name.endsWith('.ts')) files.push(path);
    }
  };
  for (const part of ['src/main', 'src/shared']) walk(join(root, part));
  const hash = createHash('sha256');
  for (const f of files.map((p) => relative(root, p).split(sep).join('/')).sort())
    hash
      .update(`${f}\n`)
      .update(readFileSync(join(root, f)))
      .update('\n');
  return hash.digest('hex');
}

let fromSources: string | null = null;

export function buildId(): string {
  if (typeof __FOLIOSCOPE_BUILD__ === 'string') return __FOLIOSCOPE_BUILD__;
  // This file is src/main/core/store/build-id.ts: the checkout is four levels up.
  fromSources ??= sourceHash(fileURLToPath(new URL('../../../..', import.meta.url)));
  return fromSources;
}
