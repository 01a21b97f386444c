import { describe, expect, it } from 'vitest';
import { date, setLocale, usd } from '../../src/renderer/src/lib/format.ts';

/**
 * Finding: a locale the runtime refuses ("en_US", "xx-invalid-!!") made every formatter
 * throw "Invalid language tag" and took every view down. (Views are also wrapped in an
 * error boundary in App.svelte, so any formatting failure shows a message, not a blank app.)
 */
describe("the renderer's formatting survives a locale the runtime refuses", () => {
  it("the renderer's formatting never throws on a locale the runtime refuses", () => {
    setLocale('xx-invalid-!!');
    expect(usd(12.5)).toBe(
      new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(12.5),
    );
    expect(date('2025-06-01')).toMatch(/2025/);
    setLocale('en_US');
    expect(() => usd(1)).not.toThrow();
    setLocale(null);
  });
});
