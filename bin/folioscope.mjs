#!/usr/bin/env node
// The `folioscope` command: runs the CLI's TypeScript through tsx's loader.
import { register } from 'tsx/esm/api';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { nodeProblem } from './node-version.mjs';

const problem = nodeProblem(process.versions.node);
if (problem) {
  console.error(problem);
  process.exit(1);
}
register();
const cli = pathToFileURL(join(import.meta.dirname, '../src/main/folioscope.ts')).href;
process.argv[1] = new URL(cli).pathname;
await import(cli);
