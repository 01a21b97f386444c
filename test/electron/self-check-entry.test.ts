import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { SCHEMA_VERSION } from '../../src/main/core/store/migrations/index.ts';
import { tempDir } from '../support/store.ts';

/**
 * `Folioscope --self-check` through the app's real main entry (Electron's API mocked: it
 * cannot launch here): one JSON line on stdout, the exit code, and no window or lock.
 */
const state = vi.hoisted(() => ({ exit: null as null | ((code: number) => void), calls: [] as string[], userData: '' }));

vi.mock('electron', () => {
  const app = {
    getPath: (name: string) => (name === 'userData' ? state.userData : '/nowhere'),
    setPath: (name: string, value: string) => {
      state.calls.push(`setPath:${name}`);
      if (name === 'userData') state.userData = value;
    },
    getVersion: () => '9.8.7',
    exit: (code: number) => state.exit?.(code),
    requestSingleInstanceLock: () => (state.calls.push('lock'), true),
    whenReady: () => (state.calls.push('whenReady'), new Promise(() => {})),
    on: () => app,
    quit: () => state.calls.push('quit'),
  };
  return {
    app,
    BrowserWindow: class {},
    dialog: {},
    ipcMain: {},
    shell: {},
    protocol: { registerSchemesAsPrivileged: () => state.calls.push('registerSchemes'), handle: () => {} },
    nativeTheme: {},
    session: {},
  };
});

const argv = process.argv;
afterAll(() => {
  process.argv = argv;
  delete process.env['FOLIOSCOPE_DATA_DIR'];
});

describe('the main entry with --self-check', () => {
  it('prints one JSON line about the data folder it was given and exits 0, opening no window', async () => {
    const dataDir = tempDir();
    process.env['FOLIOSCOPE_DATA_DIR'] = dataDir;
    process.argv = [...argv, '--self-check'];
    const out: string[] = [];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(((chunk: string, cb?: () => void) => {
      out.push(String(chunk));
      cb?.();
      return true;
    }) as typeof process.stdout.write);
    const code = await new Promise<number>((resolve) => {
      state.exit = resolve;
      void import('../../src/main/index.ts');
    });
    write.mockRestore();
    expect(code).toBe(0);
    expect(out).toHaveLength(1);
    expect(out[0]!.endsWith('\n')).toBe(true);
    const report = JSON.parse(out[0]!);
    expect(report).toMatchObject({
      selfCheck: 'folioscope',
      ok: true,
      app: '9.8.7',
      cache: { ok: true, file: join(dataDir, 'demo.sqlite'), schema: SCHEMA_VERSION },
    });
    expect(readFileSync(join(dataDir, 'demo.sqlite')).subarray(0, 15).toString()).toBe('SQLite format 3');
    // No single-instance lock, no app start: only the data folder and the scheme were set up.
    expect(state.calls).toEqual(['setPath:userData', 'registerSchemes']);
  });
});
