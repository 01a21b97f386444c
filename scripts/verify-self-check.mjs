#!/usr/bin/env node
// Runs a built Folioscope (installed or unpacked) with --self-check and checks its report:
//   node scripts/verify-self-check.mjs EXECUTABLE [extra args...]
// Prints the report line; exits 0 only if the app says ok and it ran inside Electron.
// A fresh data folder is used, so a runner's or a user's own data is never touched.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [exe, ...extra] = process.argv.slice(2);
if (!exe) {
  console.error('Usage: node scripts/verify-self-check.mjs EXECUTABLE [args...]');
  process.exit(2);
}
const dataDir = mkdtempSync(join(tmpdir(), 'folioscope-selfcheck-'));
const run = spawnSync(exe, [...extra, '--self-check'], { env: { ...process.env, FOLIOSCOPE_DATA_DIR: dataDir }, encoding: 'utf8', timeout: 120_000 });
rmSync(dataDir, { recursive: true, force: true });
const line = (run.stdout ?? '').split(/\r?\n/).find((l) => l.startsWith('{"selfCheck"'));
if (!line) {
  console.error(`${exe} --self-check printed no report (exit ${run.status}${run.error ? `, ${run.error.message}` : ''}).`);
  console.error((run.stderr ?? '').split('\n').slice(-15).join('\n'));
  process.exit(1);
}
console.log(line);
const report = JSON.parse(line);
const problems = [];
if (report.ok !== true) problems.push('the report is not ok');
if (!report.versions?.electron) problems.push('it did not run inside Electron');
if (run.status !== 0) problems.push(`exit code ${run.status}`);
if (problems.length) {
  console.error(`self-check of ${exe} failed: ${problems.join('; ')}.`);
  process.exit(1);
}
console.log(
  `self-check passed: Electron ${report.versions.electron}, keychain ${report.keychain.available ? 'available' : `unavailable (${report.keychain.detail})`}.`,
);
