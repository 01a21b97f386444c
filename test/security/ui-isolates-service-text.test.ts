// @vitest-environment jsdom
import { render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import Sidebar from '../../src/renderer/src/components/Sidebar.svelte';
import { label, safe } from '../../src/renderer/src/lib/format.ts';
import { appState } from '../../src/renderer/src/lib/store.svelte.ts';

/**
 * Issue 12 item 6: bidi overrides and controls from the service or a label never reorder or
 * hide neighbouring text in the UI: the text is isolated (<bdi>) and each such character is
 * shown as a visible escape.
 */
const A = '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c';
afterEach(() => {
  appState.apply({ wallets: [] });
});

describe('the UI isolates and shows service and label text', () => {
  it('a label with an override is shown inside <bdi>, the override as <U+202E>', () => {
    appState.apply({ wallets: [{ address: A, label: 'Tre\u202easury\u001b[2J', tags: [], chains: ['eth'], createdAt: '' }] });
    render(Sidebar, { onadd: () => undefined, onedit: () => undefined });
    const strong = screen
      .getAllByRole('link')
      .find((a) => a.getAttribute('href')?.includes(A))!
      .querySelector('strong')!;
    const bdi = strong.querySelector('bdi');
    expect(bdi).not.toBeNull();
    expect(bdi!.textContent).toBe('Tre<U+202E>asury<U+001B>[2J');
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    expect(strong.textContent).not.toMatch(/[\u0000-\u001f\u202a-\u202e]/);
  });

  it('the formatting helpers used for service strings neutralise them', () => {
    expect(label('aave\u202e_v3')).toBe('Aave<U+202E> V3');
    expect(safe('E\u2067TH\u2069')).toBe('E<U+2067>TH<U+2069>');
    expect(safe(null, '—')).toBe('—');
    expect(safe('Ether')).toBe('Ether');
  });
});
