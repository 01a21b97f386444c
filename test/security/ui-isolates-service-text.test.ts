import { describe, expect, it } from 'vitest';
import { label, safe } from '../../src/renderer/src/lib/format.ts';

/**
 * Issue 12 item 6: bidi overrides and controls from the service or a label never reorder or
 * hide neighbouring text in the UI: the text is isolated (<bdi>) and each such character is
 * shown as a visible escape. The sidebar's label so, in Chromium: test/e2e/sidebar-fund.test.ts
 * (its list draws only the rows in view, which jsdom cannot lay out).
 */

describe('the UI isolates and shows service and label text', () => {
  it('the formatting helpers used for service strings neutralise them', () => {
    expect(label('aave\u202e_v3')).toBe('Aave<U+202E> V3');
    expect(safe('E\u2067TH\u2069')).toBe('E<U+2067>TH<U+2069>');
    expect(safe(null, '—')).toBe('—');
    expect(safe('Ether')).toBe('Ether');
  });
});
