// @vitest-environment jsdom
import { fireEvent, render, screen } from '@testing-library/svelte';
import { tick } from 'svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import Sidebar from '../../src/renderer/src/components/Sidebar.svelte';
import WalletDialog from '../../src/renderer/src/components/WalletDialog.svelte';
import { route } from '../../src/renderer/src/lib/route.svelte.ts';
import { appState } from '../../src/renderer/src/lib/store.svelte.ts';

// jsdom has <dialog> but not its modal methods.
HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
  this.open = true;
};
HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
  this.open = false;
};

const A = '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c';
const B = '0x00000000219ab540356cbb839cbe05303d7705fa';

afterEach(() => {
  appState.apply({ wallets: [], statuses: [] });
  route.go({ wallet: null });
  vi.unstubAllGlobals();
});

describe('Sidebar', () => {
  it('lists watched wallets with labels, chains and tags, under "All wallets"', () => {
    appState.apply({
      wallets: [
        { address: A, label: 'Treasury', tags: ['ops'], chains: ['eth', 'arb'], createdAt: '' },
        { address: B, label: '', tags: [], chains: ['eth'], createdAt: '' },
      ],
    });
    render(Sidebar, { onadd: () => undefined, onimport: () => undefined, onedit: () => undefined });
    const options = screen.getAllByRole('link');
    expect(options.map((o) => o.querySelector('strong')?.textContent)).toEqual(['All wallets', 'Treasury', '0x0000…05fa']);
    // The selected wallet is the current page, and the list's one Tab stop.
    expect(options.map((o) => o.getAttribute('aria-current'))).toEqual(['page', null, null]);
    expect(options.map((o) => o.getAttribute('tabindex'))).toEqual(['0', '-1', '-1']);
    // Chains by name (issue 39: one name per chain on every screen).
    expect(options[1]!.textContent).toContain('Arbitrum One');
    expect(options[1]!.textContent).toContain('ops');
    expect(screen.getByRole('button', { name: 'Add wallet' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Edit Treasury' })).toBeTruthy();
  });

  it('moves the selection with the arrow keys and puts it in the URL', async () => {
    appState.apply({ wallets: [{ address: A, label: 'Treasury', tags: [], chains: ['eth'], createdAt: '' }] });
    render(Sidebar, { onadd: () => undefined, onimport: () => undefined, onedit: () => undefined });
    await fireEvent.keyDown(screen.getAllByRole('link')[0]!, { key: 'ArrowDown' });
    expect(route.current.wallet).toBe(A);
    expect(location.hash).toContain(`wallet=${A}`);
    await tick();
    expect(screen.getAllByRole('link')[1]!.getAttribute('aria-current')).toBe('page');
    expect(screen.getAllByRole('link')[1]!.getAttribute('tabindex')).toBe('0');
  });
});

describe('WalletDialog', () => {
  it('has labelled fields and says what is wrong with an address before sending it', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    appState.apply({
      info: {
        version: '0',
        mode: 'demo',
        baseUrl: null,
        key: { set: false, source: 'none', keychainAvailable: true, keychainProblem: null },
        dataDir: '',
        databaseFile: '',
        chains: ['eth', 'arb'],
        shell: 'web',
      },
    });
    render(WalletDialog, { open: true, wallet: null, onclose: () => undefined });
    await tick();
    const address = screen.getByLabelText('Address') as HTMLInputElement;
    expect(screen.getByLabelText('Label')).toBeTruthy();
    expect((screen.getByRole('checkbox', { name: 'Ethereum' }) as HTMLInputElement).checked).toBe(true);
    await fireEvent.input(address, { target: { value: '0x12 34' } });
    await fireEvent.submit(address.form!);
    expect(screen.getByRole('alert').textContent).toBe('The address contains spaces; paste it without spaces or line breaks.');
    expect(address.getAttribute('aria-invalid')).toBe('true');
    await fireEvent.click(screen.getByRole('checkbox', { name: 'Ethereum' }));
    await fireEvent.input(address, { target: { value: A } });
    await fireEvent.submit(address.form!);
    expect(screen.getByRole('alert').textContent).toBe('Choose at least one chain.');
    expect(fetch).not.toHaveBeenCalled();
  });
});
