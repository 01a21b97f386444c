#!/usr/bin/env node
// A stand-in for the Electron executable in the launch tests: it records how it was started
// (arguments, working folder, the variables electron-vite sets) to the file named by
// STANDIN_RECORD (or prints it), and in dev mode asks the renderer's dev server for its page, then exits.
import { writeFileSync } from 'node:fs';

const env = process.env;
const record = {
  argv: process.argv.slice(2),
  cwd: process.cwd(),
  execPath: process.argv[1],
  env: {
    ELECTRON_RENDERER_URL: env.ELECTRON_RENDERER_URL ?? null,
    NODE_ENV_ELECTRON_VITE: env.NODE_ENV_ELECTRON_VITE ?? null,
    ELECTRON_EXEC_PATH: env.ELECTRON_EXEC_PATH ?? null,
  },
  renderer: null,
};
if (env.ELECTRON_RENDERER_URL) {
  try {
    const res = await fetch(env.ELECTRON_RENDERER_URL);
    record.renderer = { status: res.status, body: (await res.text()).slice(0, 2000) };
  } catch (err) {
    record.renderer = { error: String(err?.cause?.message ?? err?.message ?? err) };
  }
}
// Without STANDIN_RECORD (run by hand), the record goes to stdout.
if (env.STANDIN_RECORD) writeFileSync(env.STANDIN_RECORD, JSON.stringify(record, null, 2));
else console.log(`stand-in Electron started: ${JSON.stringify(record)}`);
