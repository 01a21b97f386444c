import { describe, expect, it } from 'vitest';
import { shoot } from '../support/browser.ts';
import { useWebSession } from '../support/web-session.ts';

/**
 * Findings (issue 27): a failed Connect showed its error about 1,750 px below the button, at
 * the end of the Settings dialog; an invalid date typed in the timeline's From/To was refused
 * with only a red border. What went wrong is said where it happened, visibly.
 */
const web = useWebSession({ viewport: { width: 1024, height: 640 }, core: { scheduleEveryMs: 0 }, open: true });

describe('Settings says how an action went beside it', () => {
  it('a Connect the service refuses shows its error right under the button, in view', async () => {
    await web.page.getByRole('button', { name: 'Settings' }).click();
    const dialog = web.page.getByRole('dialog', { name: 'Settings' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    // The demo's own reference service, with a key it refuses.
    await dialog.getByLabel('Base URL').fill(web.core.demoService()!.url);
    await dialog.getByLabel('Access key', { exact: true }).fill('not-the-demo-key-0000');
    const connect = dialog.getByRole('button', { name: 'Connect', exact: true });
    await connect.click();
    const alert = dialog.getByRole('alert');
    await expect.poll(() => alert.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await alert.textContent()).toMatch(/key/i);
    const button = (await connect.boundingBox())!;
    const error = (await alert.boundingBox())!;
    expect(error.y - (button.y + button.height)).toBeLessThan(80);
    expect(error.y + error.height).toBeLessThanOrEqual(640);
    await shoot(web.page, 'settings-connect-refused-1024x640');
    await web.page.keyboard.press('Escape');
  });
});

describe('a date field says what is wrong with what was typed', () => {
  it('the timeline keeps the text typed, says it is not a date, under the field, and filters nothing', async () => {
    await web.core.call('wallets.add', { address: '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c', chains: ['eth'] });
    await web.page.goto(`${web.shell.appUrl}#/timeline`);
    const from = web.page.locator('#timeline-from');
    await from.waitFor();
    await from.fill('2025-13-45');
    await from.press('Tab');
    const alert = web.page.locator('#timeline-from-error');
    await expect.poll(() => alert.isVisible()).toBe(true);
    expect(await alert.textContent()).toMatch(/^Not a date: type it like /);
    expect(await from.inputValue()).toBe('2025-13-45');
    const field = (await from.boundingBox())!;
    const box = (await alert.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(field.y + field.height);
    expect(box.y - (field.y + field.height)).toBeLessThan(20);
    await shoot(web.page, 'timeline-date-not-a-date-1024x640');
    // Corrected: the message goes.
    await from.fill('2025-01-02');
    await from.press('Tab');
    await expect.poll(() => alert.count()).toBe(0);
    expect(web.problems).toEqual([]);
  });
});
