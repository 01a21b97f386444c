import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/store.ts';

/**
 * The GitHub workflows, checked offline: against GitHub's workflow schema by
 * @action-validator/cli (WebAssembly, no install script, no download), and for what they
 * promise (which systems, which commands).
 */
const ROOT = join(import.meta.dirname, '../..');
const WORKFLOWS = join(ROOT, '.github/workflows');
const require = createRequire(import.meta.url);
const VALIDATOR = join(dirname(require.resolve('@action-validator/cli/package.json')), 'cli.mjs');

function validate(file: string) {
  return spawnSync(process.execPath, [VALIDATOR, file], { encoding: 'utf8', timeout: 60_000 });
}

type Step = { run?: string; uses?: string; if?: string; with?: Record<string, unknown>; env?: Record<string, string> };
type Job = {
  'runs-on': string;
  steps: Step[];
  needs?: string | string[];
  permissions?: Record<string, string>;
  strategy?: { matrix: { include: Array<{ os: string }> } };
};
type Workflow = { on: Record<string, unknown>; jobs: Record<string, Job>; permissions?: Record<string, string> };
const load = (name: string) => parse(readFileSync(join(WORKFLOWS, name), 'utf8')) as Workflow;
const runs = (job: Job) => job.steps.map((s) => s.run ?? '').join('\n');
const systems = (w: Workflow) => Object.values(w.jobs).flatMap((j) => (j.strategy ? j.strategy.matrix.include.map((i) => i.os) : [j['runs-on']]));

describe('.github/workflows', () => {
  it('every workflow file passes the validator', () => {
    const files = readdirSync(WORKFLOWS).filter((f) => /\.ya?ml$/.test(f));
    expect(files.sort()).toEqual(['ci.yml', 'release.yml']);
    for (const f of files) {
      const res = validate(join(WORKFLOWS, f));
      expect(res.status, `${f}: ${res.stdout}${res.stderr}`).toBe(0);
    }
  });

  it('the validator does reject a broken workflow (a job without runs-on, a misspelt key)', () => {
    const broken = join(tempDir(), 'broken.yml');
    writeFileSync(broken, readFileSync(join(WORKFLOWS, 'ci.yml'), 'utf8').replace('runs-on: ubuntu-24.04', 'run-on: ubuntu-24.04'));
    const res = validate(broken);
    expect(res.status).not.toBe(0);
    expect(res.stdout + res.stderr).toMatch(/run-on|runs-on/);
  });

  it('CI runs on every push on Linux, macOS and Windows: npm ci, the tests, and the Electron suite (Xvfb on Linux)', () => {
    const ci = load('ci.yml');
    expect(Object.keys(ci.on)).toContain('push');
    expect(ci.on['push']).toBeNull(); // every branch and tag
    expect(
      systems(ci)
        .map((os) => os.split('-')[0])
        .sort(),
    ).toEqual(['macos', 'ubuntu', 'windows']);
    const linux = runs(ci.jobs['linux']!);
    expect(linux).toMatch(/^npm ci$/m);
    expect(linux).toMatch(/^npm test$/m);
    expect(linux).toMatch(/^xvfb-run -a npm run test:electron$/m);
    const desktop = runs(ci.jobs['desktop']!);
    expect(desktop).toMatch(/^npm ci$/m);
    expect(desktop).toMatch(/^npm run test:portable$/m);
    expect(desktop).toMatch(/^npm run test:electron$/m);
    expect(ci.permissions).toEqual({ contents: 'read' });
  });

  it('scripts the workflows call exist in package.json', () => {
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    const text = ['ci.yml', 'release.yml'].map((f) => readFileSync(join(WORKFLOWS, f), 'utf8')).join('\n');
    const used = [...text.matchAll(/npm run ([\w:-]+)/g)].map((m) => m[1]!);
    expect(used.length).toBeGreaterThan(0);
    for (const s of used) expect(scripts, s).toHaveProperty(s);
    for (const f of [...text.matchAll(/node (scripts\/[\w.-]+\.mjs)/g)].map((m) => m[1]!)) expect(() => readFileSync(join(ROOT, f))).not.toThrow();
  });

  it('a version tag builds AppImage+deb, dmg and nsis with npm run dist, self-checks each app, and publishes them with SHA-256 sums', () => {
    const rel = load('release.yml');
    expect(rel.on).toEqual({ push: { tags: ['v*'] } });
    const build = rel.jobs['build']!;
    expect(
      systems({ ...rel, jobs: { build } })
        .map((os) => os.split('-')[0])
        .sort(),
    ).toEqual(['macos', 'ubuntu', 'windows']);
    const steps = runs(build);
    expect(steps).toMatch(/^npm run dist$/m);
    const checks = [...steps.matchAll(/verify-self-check\.mjs (\S+)/g)].map((m) => m[1]);
    expect(checks).toEqual([
      '/opt/Folioscope/folioscope',
      '"$appimage"',
      '/Volumes/Folioscope/Folioscope.app/Contents/MacOS/Folioscope',
      "'C:\\FolioscopeSelfCheck\\Folioscope.exe'",
    ]);
    const upload = build.steps.find((s) => s.uses?.startsWith('actions/upload-artifact'))!;
    expect(String(upload.with!['path'])).toMatch(/\*\.AppImage[\s\S]*\*\.deb[\s\S]*\*\.dmg[\s\S]*Setup-\*\.exe/);
    const publish = rel.jobs['publish']!;
    expect(publish.needs).toBe('build');
    expect(publish.permissions).toEqual({ contents: 'write' });
    expect(runs(publish)).toMatch(/sha256sum -- \* > SHA256SUMS\.txt/);
    expect(runs(publish)).toMatch(/gh release create "\$GITHUB_REF_NAME" release\/\*/);
    // Only the publishing job may write.
    expect(rel.permissions).toEqual({ contents: 'read' });
  });

  it("electron-builder.yml passes electron-builder's own schema check (and a misspelt key does not)", async () => {
    // The check electron-builder runs before packaging, called directly: packaging itself needs the internet.
    const builderLib = dirname(createRequire(require.resolve('electron-builder/package.json')).resolve('app-builder-lib/package.json'));
    const { validateConfiguration } = createRequire(import.meta.url)(join(builderLib, 'out/util/config/config.js')) as {
      validateConfiguration(c: unknown, log: unknown): Promise<void>;
    };
    const log = { isEnabled: false, add: () => {} };
    const config = parse(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')) as { mac: object };
    await expect(validateConfiguration(config, log)).resolves.toBeUndefined();
    await expect(validateConfiguration({ ...config, mac: { ...config.mac, hardenedRuntim: true } }, log)).rejects.toThrow(/does not match the API schema/);
  });

  it('electron-builder.yml builds those targets', () => {
    const config = parse(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')) as {
      linux: { target: string[] };
      mac: { target: string };
      win: { target: string };
      deb: { depends: string[] };
    };
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac.target).toBe('dmg');
    expect(config.win.target).toBe('nsis');
    // Replacing electron-builder's list must keep Electron's own libraries.
    expect(config.deb.depends).toEqual(expect.arrayContaining(['libgtk-3-0', 'libnss3', 'libsecret-1-0']));
  });
});
