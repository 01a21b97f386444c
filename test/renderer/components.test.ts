// @vitest-environment jsdom
import { fireEvent, render, screen } from '@testing-library/svelte';
import { tick } from 'svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
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

afterEach(() => {
  appState.apply({ wallets: [], statuses: [] });
  route.go({ wallet: null });
  vi.unstubAllGlobals();
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
