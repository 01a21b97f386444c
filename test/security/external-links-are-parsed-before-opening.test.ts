import { describe, expect, it, vi } from 'vitest';
import { createCore } from '../../src/main/core/app.ts';
import { tempDir } from '../support/store.ts';
import { demoStarter } from '../../src/sim/demo.ts';

/**
 * Finding: openExternal was passed the original string rather than the parsed URL, so
 * `https://etherscan.io\@evil.com` passed the check (WHATWG reads the host as etherscan.io)
 * and went on as written, for the OS or browser to read as evil.com.
 */
const state = vi.hoisted(() => ({ opened: [] as string[] }));
vi.mock('electron', () => {
  class BrowserWindow {
    windowOpenHandler: ((d: { url: string }) => unknown) | null = null;
    webContents = { setWindowOpenHandler: (h: (d: { url: string }) => unknown) => (this.windowOpenHandler = h), on: () => undefined };
    once() {}
    loadURL() {
      return Promise.resolve();
    }
  }
  return {
    BrowserWindow,
    nativeTheme: { shouldUseDarkColors: false },
    shell: { openExternal: (url: string) => (state.opened.push(url), Promise.resolve()) },
    session: {
      defaultSession: {
        setPermissionRequestHandler: () => undefined,
        setPermissionCheckHandler: () => undefined,
        webRequest: { onHeadersReceived: () => undefined },
      },
    },
  };
});

const TRICKS = ['https://etherscan.io\\@evil.com', 'https://etherscan.io\\tx\\0xabc', 'HTTPS://ETHERSCAN.IO/tx/0x1'];

describe('openExternal receives the serialised parsed URL', () => {
  it('through the contract (every shell)', async () => {
    const opened: string[] = [];
    const core = await createCore({
      dataDir: tempDir(),
      shell: 'web',
      baseUrl: null,
      env: {},
      openExternal: async (url) => void opened.push(url),
      demo: demoStarter(),
    });
    try {
      for (const t of TRICKS) expect(await core.call('shell.openExternal', { url: t })).toBe(true);
      expect(opened).toEqual(['https://etherscan.io/@evil.com', 'https://etherscan.io/tx/0xabc', 'https://etherscan.io/tx/0x1']);
      for (const u of opened) expect(new URL(u).host).toBe('etherscan.io');
      expect(await core.dispatch('shell.openExternal', { url: 'https://evil.com\\@etherscan.io' })).toMatchObject({ ok: false });
    } finally {
      await core.close();
    }
  });

  it("through the Electron window's link handler", async () => {
    const { createMainWindow } = await import('../../src/main/electron/window.ts');
    const win = createMainWindow({ preload: 'p' }) as unknown as { windowOpenHandler: (d: { url: string }) => unknown };
    for (const t of TRICKS) expect(win.windowOpenHandler({ url: t })).toEqual({ action: 'deny' });
    expect(state.opened).toEqual(['https://etherscan.io/@evil.com', 'https://etherscan.io/tx/0xabc', 'https://etherscan.io/tx/0x1']);
  });
});
