#!/usr/bin/env node
// The `folioscope` command. It runs the program's bundle (out/main/folioscope.js, made by
// `npm run build` with the app) when that bundle is at least as new as every source file,
// and the TypeScript source through tsx's loader otherwise: the bundle starts in well under
// half the time (tsx compiles the ~400 modules at each start, and a cron job or a script
// pays that at every call), while a checkout whose source changed since its last build never
// runs stale code. FOLIOSCOPE_FROM_SOURCE=1 runs the source whatever is built.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { nodeProblem } from './node-version.mjs';

const problem = nodeProblem(process.versions.node);
if (problem) {
  console.error(problem);
  process.exit(1);
}

const root = join(import.meta.dirname, '..');
const bundle = join(root, 'out/main/folioscope.js');

/** Whether the bundle was built after the last change to anything it is built from. */
function bundleIsCurrent() {
  if (process.env.FOLIOSCOPE_FROM_SOURCE === '1' || !existsSync(bundle)) return false;
  const built = statSync(bundle).mtimeMs;
  const inputs = [join(root, 'package.json'), join(root, 'electron.vite.config.ts')];
  for (const entry of readdirSync(join(root, 'src'), { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) inputs.push(join(entry.parentPath, entry.name));
  }
  return inputs.every((file) => !existsSync(file) || statSync(file).mtimeMs <= built);
}

const current = bundleIsCurrent();
// Which of the two runs, for a person or a test asking (FOLIOSCOPE_SAY_ENTRY=1): on stderr, so
// a command's output stays as it is.
if (process.env.FOLIOSCOPE_SAY_ENTRY === '1') console.error(`folioscope: running ${current ? 'the bundle' : 'the source'}`);
if (current) {
  process.argv[1] = bundle;
  await import(pathToFileURL(bundle).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  const cli = pathToFileURL(join(root, 'src/main/folioscope.ts')).href;
  process.argv[1] = new URL(cli).pathname;
  await import(cli);
}
