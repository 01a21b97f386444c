import { join, normalize, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { explorerTxUrl, isAllowedExternalUrl } from '../../src/shared/explorers.ts';
import { APP_ENTRY, isAppUrl, isTrustedSender, resolveAppPath } from '../../src/main/electron/security.ts';

describe('Electron shell policy', () => {
  it("shows only the app's own pages (and the dev server in development)", () => {
    expect(isAppUrl(APP_ENTRY)).toBe(true);
    expect(isAppUrl('app://folioscope/assets/x.js')).toBe(true);
    expect(isAppUrl('app://other/index.html')).toBe(false);
    expect(isAppUrl('https://evil.example/')).toBe(false);
    expect(isAppUrl('file:///etc/passwd')).toBe(false);
    expect(isAppUrl('http://localhost:5173/', 'http://localhost:5173')).toBe(true);
    expect(isAppUrl('http://localhost:5174/', 'http://localhost:5173')).toBe(false);
    expect(isAppUrl('not a url')).toBe(false);
  });

  it("trusts IPC only from the app's own main frame", () => {
    expect(isTrustedSender({ url: APP_ENTRY, parent: null })).toBe(true);
    expect(isTrustedSender({ url: APP_ENTRY, parent: {} })).toBe(false); // a subframe
    expect(isTrustedSender({ url: 'https://evil.example/', parent: null })).toBe(false);
    expect(isTrustedSender(null)).toBe(false);
  });

  it('serves app:// paths from the renderer folder only', () => {
    const root = '/opt/folioscope/out/renderer';
    const resolve = (u: string) => resolveAppPath(root, u, join, normalize, sep);
    expect(resolve('app://folioscope/')).toBe(`${root}/index.html`);
    expect(resolve('app://folioscope/assets/a.js')).toBe(`${root}/assets/a.js`);
    expect(resolve('app://folioscope/../../etc/passwd')).toBe(`${root}/etc/passwd`); // URL parsing folds ..
    expect(resolve('app://folioscope/%2e%2e/%2e%2e/etc/passwd')).toBe(`${root}/etc/passwd`); // so does %2e%2e
    expect(resolve('app://folioscope/..%2f..%2f..%2fetc%2fpasswd')).toBeNull(); // an encoded slash would escape
    expect(resolve('app://other/index.html')).toBeNull();
  });

  it('opens externally only https block-explorer links', () => {
    const tx = explorerTxUrl('eth', '0x' + 'ab'.repeat(32))!;
    expect(tx).toBe('https://etherscan.io/tx/0x' + 'ab'.repeat(32));
    expect(isAllowedExternalUrl(tx)).toBe(true);
    expect(isAllowedExternalUrl('http://etherscan.io/tx/1')).toBe(false);
    expect(isAllowedExternalUrl('https://etherscan.io.evil.example/')).toBe(false);
    expect(isAllowedExternalUrl('https://user:pw@etherscan.io/')).toBe(false);
    expect(isAllowedExternalUrl('file:///etc/passwd')).toBe(false);
    expect(isAllowedExternalUrl('javascript:alert(1)')).toBe(false);
    expect(explorerTxUrl('unknown', '0x' + 'ab'.repeat(32))).toBeNull();
  });
});
