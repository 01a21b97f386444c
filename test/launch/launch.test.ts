import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../support/store.ts';
import { freshProject } from './project.ts';
import { makeZip } from './zip.ts';

/**
 * `npm start` and `npm run dev` as a user runs them, in a copy of the project with no
 * Electron binary, an empty download cache, and a stand-in executable that records how it
 * was started. Real npm, real electron-vite builds, the electron package's real installer.
 */
const STAND_IN = join(import.meta.dirname, 'stand-in-electron.mjs');
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

interface StandInRecord {
  argv: string[];
  cwd: string;
  execPath: string;
  env: { ELECTRON_RENDERER_URL: string | null; NODE_ENV_ELECTRON_VITE: string | null; ELECTRON_EXEC_PATH: string | null };
  renderer: { status?: number; body?: string; error?: string } | null;
}

/**
 * The environment of a user's shell with none of this machine's Electron or proxy settings:
 * no ELECTRON_* or proxy variables, and empty npm config files (npm would otherwise export an
 * `electron_mirror` from an .npmrc as npm_config_electron_mirror, which @electron/get prefers).
 */
function userEnv(extra: { [k: string]: string }): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(electron_|npm_config_electron|npm_package_config_electron|force_no_cache$)/i.test(k)) continue;
    if (/^(https?_proxy|all_proxy|no_proxy|node_use_env_proxy|npm_config_(user|global)config)$/i.test(k)) continue;
    env[k] = v;
  }
  const rc = tempDir();
  for (const f of ['user-npmrc', 'global-npmrc']) writeFileSync(join(rc, f), '');
  return {
    ...env,
    npm_config_userconfig: join(rc, 'user-npmrc'),
    npm_config_globalconfig: join(rc, 'global-npmrc'),
    electron_config_cache: tempDir(),
    ...extra,
  };
}

/** Runs an npm script in the project; killed (and so failing the test) after `limitMs`. */
function npm(cwd: string, args: string[], env: NodeJS.ProcessEnv, limitMs = 120_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn('npm', args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), limitMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, ms: Date.now() - started });
    });
  });
}

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

function readRecord(file: string): StandInRecord {
  return JSON.parse(readFileSync(file, 'utf8')) as StandInRecord;
}

/**
 * What the user sees from our launcher: npm's own banner, warnings and notices left out (npm says
 * a newer npm exists on the days it checks: not ours, and not every day).
 */
function ourLines(text: string): string[] {
  return text.split('\n').filter((l) => l.trim() && !l.startsWith('npm warn') && !l.startsWith('npm notice') && !l.startsWith('> '));
}

/**
 * Now, by the file system's clock, which dates the build's files: the moment a file is written,
 * read back. Not Date.now(): the two differ under a clock moved for the test (libfaketime moves
 * the process's, not the file system's: scripts/test-at.sh).
 */
function fileClockNow(): number {
  const stamp = join(tempDir(), 'now');
  writeFileSync(stamp, '');
  return statSync(stamp).mtimeMs;
}

/** The stand-in was started the way Electron runs an app: on the project, whose main entry was just built. */
function expectLaunchedOnMainEntry(project: string, rec: StandInRecord, since: number): void {
  expect(rec.argv[0]).toBe('.');
  expect(rec.cwd).toBe(project);
  const main = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')).main as string;
  expect(main).toBe('out/main/index.js');
  const entry = join(rec.cwd, main);
  expect(statSync(entry).mtimeMs).toBeGreaterThanOrEqual(since - 1000);
  expect(readFileSync(entry, 'utf8')).toContain('requestSingleInstanceLock');
  expect(existsSync(join(project, 'out/preload/index.cjs'))).toBe(true);
}

describe('npm start and npm run dev from a fresh clone', () => {
  it('ELECTRON_EXEC_PATH: npm start builds the app and launches that executable on its main entry, with no download', async () => {
    const project = freshProject();
    const record = join(tempDir(), 'record.json');
    const since = fileClockNow();
    // A mirror nobody answers on: any download attempt would fail the run.
    const run = await npm(
      project,
      ['start'],
      userEnv({ ELECTRON_EXEC_PATH: STAND_IN, STANDIN_RECORD: record, ELECTRON_MIRROR: `http://127.0.0.1:${await closedPort()}/` }),
    );
    expect(run.stderr + run.stdout).not.toMatch(/download/i);
    expect(run.code, run.stderr).toBe(0);
    const rec = readRecord(record);
    expectLaunchedOnMainEntry(project, rec, since);
    expect(rec.env.ELECTRON_RENDERER_URL).toBeNull();
    expect(existsSync(join(project, 'out/renderer/index.html'))).toBe(true);
    expect(existsSync(join(project, 'node_modules/electron/path.txt'))).toBe(false);
  });

  it('npm run dev launches it on the main entry with the renderer dev server URL, which serves the app page', async () => {
    const project = freshProject();
    const record = join(tempDir(), 'record.json');
    const since = fileClockNow();
    const run = await npm(project, ['run', 'dev'], userEnv({ ELECTRON_EXEC_PATH: STAND_IN, STANDIN_RECORD: record }));
    expect(run.code, run.stderr).toBe(0);
    const rec = readRecord(record);
    expectLaunchedOnMainEntry(project, rec, since);
    expect(rec.env.ELECTRON_RENDERER_URL).toMatch(/^http:\/\/(localhost|127\.0\.0\.1|\[::1\]):\d+\/?$/);
    expect(rec.env.NODE_ENV_ELECTRON_VITE).toBe('development');
    expect(rec.renderer?.status).toBe(200);
    expect(rec.renderer?.body).toContain('<div id="app"></div>');
    expect(rec.renderer?.body).toContain('<title>Folioscope</title>');
  });

  it('first start (npm run dev): downloads Electron through the mirror with one line saying so, unpacks it with the electron package installer, then launches it', async () => {
    const project = freshProject();
    const electronDir = join(project, 'node_modules/electron');
    const version = JSON.parse(readFileSync(join(electronDir, 'package.json'), 'utf8')).version as string;
    const exe = process.platform === 'darwin' ? 'Electron.app/Contents/MacOS/Electron' : 'electron';
    const zipName = `electron-v${version}-${process.platform}-${process.arch}.zip`;
    const zip = makeZip([
      { name: exe, data: readFileSync(STAND_IN), mode: 0o755 },
      { name: 'version', data: Buffer.from(version) },
    ]);
    // The mirror's release, with its checksum where the installer checks it.
    const sums = JSON.parse(readFileSync(join(electronDir, 'checksums.json'), 'utf8')) as { [k: string]: string };
    expect(sums[zipName]).toMatch(/^[0-9a-f]{64}$/);
    sums[zipName] = createHash('sha256').update(zip).digest('hex');
    writeFileSync(join(electronDir, 'checksums.json'), JSON.stringify(sums));
    const requests: string[] = [];
    const mirror = createServer((req, res) => {
      requests.push(req.url!);
      if (req.url === `/custom-dir/${zipName}`) res.end(zip);
      else res.writeHead(404).end();
    });
    servers.push(mirror);
    await new Promise<void>((r) => mirror.listen(0, '127.0.0.1', r));
    const port = (mirror.address() as AddressInfo).port;
    const record = join(tempDir(), 'record.json');
    const cache = tempDir();
    const since = fileClockNow();
    // `npm run dev`: the same first-start path as npm start, and no renderer build to wait for.
    const run = await npm(
      project,
      ['run', 'dev'],
      userEnv({ STANDIN_RECORD: record, ELECTRON_MIRROR: `http://127.0.0.1:${port}/`, ELECTRON_CUSTOM_DIR: 'custom-dir', electron_config_cache: cache }),
    );
    expect(run.code, run.stderr).toBe(0);
    expect(requests).toEqual([`/custom-dir/${zipName}`]);
    const downloading = ourLines(run.stderr).filter((l) => /download/i.test(l));
    expect(downloading).toEqual([
      `Electron ${version} is not installed yet: downloading it once for ${process.platform}-${process.arch} from 127.0.0.1:${port} (about 100 MB)…`,
    ]);
    // Kept in the download cache named by electron_config_cache (under @electron/get's per-URL folder).
    const cached = readdirSync(cache, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith(zipName));
    expect(cached).toHaveLength(1);
    expect(
      createHash('sha256')
        .update(readFileSync(join(cache, cached[0]!)))
        .digest('hex'),
    ).toBe(sums[zipName]);
    // Installed where electron-vite and the electron package look for it.
    expect(readFileSync(join(electronDir, 'path.txt'), 'utf8')).toBe(exe);
    const rec = readRecord(record);
    expect(rec.execPath).toBe(join(electronDir, 'dist', exe));
    expectLaunchedOnMainEntry(project, rec, since);
    expect(rec.renderer?.status).toBe(200);

    // Later starts use the installed binary: no request, no line about a download (asked of the
    // launcher's resolver directly, to spare this busy machine another build).
    const again = spawnSync(process.execPath, [join(project, 'scripts/electron-binary.mjs')], {
      env: userEnv({ ELECTRON_MIRROR: `http://127.0.0.1:${port}/`, ELECTRON_CUSTOM_DIR: 'custom-dir' }),
      encoding: 'utf8',
    });
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout.trim()).toBe(join(electronDir, 'dist', exe));
    expect(again.stderr).toBe('');
    expect(requests).toHaveLength(1);
  });

  it('with no binary and no network, npm start stops within 30 s with one short message and no stack trace', async () => {
    const project = freshProject();
    const port = await closedPort();
    const run = await npm(project, ['start'], userEnv({ ELECTRON_MIRROR: `http://127.0.0.1:${port}/` }), 30_000);
    expect(run.signal).toBeNull(); // it stopped by itself, inside the 30 s limit
    expect(run.code).not.toBe(0);
    const lines = ourLines(run.stderr).filter((l) => !/^npm error/.test(l));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/downloading it once .* from 127\.0\.0\.1:\d+/);
    expect(lines[1]).toMatch(
      new RegExp(
        `^npm start: could not download Electron [\\d.]+ from 127\\.0\\.0\\.1:${port} \\(.*ECONNREFUSED.*\\)\\. Connect to the internet and run it again, or see the README, Troubleshooting`,
      ),
    );
    // What works without Electron is named on the same line.
    expect(lines[1]).toMatch(/npm run serve` opens the same app in a browser/);
    expect(run.stderr + run.stdout).not.toMatch(/^\s+at /m);
    // Nothing half-installed, no build started.
    expect(existsSync(join(project, 'node_modules/electron/path.txt'))).toBe(false);
    expect(existsSync(join(project, 'out'))).toBe(false);
  });

  it('a mirror that accepts the connection but sends nothing is given up within 30 s', async () => {
    const project = freshProject();
    const silent = createServer(() => {
      // Never answers.
    });
    servers.push(silent);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    silent.on('connection', (socket) => silent.once('close', () => socket.destroy()));
    const port = (silent.address() as AddressInfo).port;
    const run = await npm(project, ['start'], userEnv({ ELECTRON_MIRROR: `http://127.0.0.1:${port}/` }), 30_000);
    expect(run.signal).toBeNull();
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/npm start: could not download Electron [\d.]+ from 127\.0\.0\.1:\d+ \(no data for 20 s\)/);
    expect(run.stderr).not.toMatch(/^\s+at /m);
  });

  it('npm run test:electron with no binary and no network prints one line saying Electron cannot launch, and fails', async () => {
    const project = freshProject();
    const run = await npm(project, ['run', 'test:electron'], userEnv({ ELECTRON_MIRROR: `http://127.0.0.1:${await closedPort()}/` }), 30_000);
    expect(run.signal).toBeNull();
    expect(run.code).not.toBe(0);
    const lines = ourLines(run.stderr).filter((l) => !/^npm error/.test(l));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^test:electron: Electron cannot launch here: could not download Electron [\d.]+ from 127\.0\.0\.1:\d+ \(.*ECONNREFUSED.*\)/);
  });

  it.skipIf(process.platform === 'win32')('ELECTRON_EXEC_PATH naming a file that cannot be executed: one line, before any build', () => {
    const project = freshProject();
    const notExecutable = join(tempDir(), 'electron');
    writeFileSync(notExecutable, '', { mode: 0o644 });
    const run = spawnSync(process.execPath, [join(project, 'scripts/launch.mjs'), 'start'], {
      cwd: project,
      env: userEnv({ ELECTRON_EXEC_PATH: notExecutable }),
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      `npm start: ELECTRON_EXEC_PATH is ${notExecutable}, which is not executable: chmod +x it, or point it at an Electron executable.\n`,
    );
    expect(existsSync(join(project, 'out'))).toBe(false);
  });

  it('ELECTRON_EXEC_PATH naming no file: npm run dev says so in one line', async () => {
    const project = freshProject();
    const missing = join(tempDir(), 'no-electron-here');
    const run = await npm(project, ['run', 'dev'], userEnv({ ELECTRON_EXEC_PATH: missing }), 30_000);
    expect(run.code).not.toBe(0);
    expect(ourLines(run.stderr).filter((l) => !/^npm error/.test(l))).toEqual([
      `npm run dev: ELECTRON_EXEC_PATH is ${missing}, which is not a file: point it at an Electron executable or unset it.`,
    ]);
  });
});
