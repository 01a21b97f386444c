/**
 * A month end by a team (issue 37, "What must show"), as the README's team server section runs
 * it: `server init` for the owner (the password from standard input), `users add` for the rest
 * (passwords from FOLIOSCOPE_USER_PASSWORD), `folioscope server` as a process of its own in demo
 * mode (no key: the built-in reference service), and a preparer's token for the script that adds
 * and syncs the wallet. Then in Chromium, one browser context per person, each signing in on the
 * sign-in page: pia (preparer) imports the address book's CSV and sets a rule on the name it
 * brought, then prepares June 2025's close; val (viewer) is offered no edit, and one asked from
 * her page anyway is refused with the role's sentence; pia cannot approve the close she prepared; abe (approver) approves it, and
 * the close names both; aud (auditor) downloads the auditor's bundle. `verify-bundle` passes on
 * the download and fails, naming the part, on a copy with one transaction's amount changed; the
 * audit trail names the person behind every edit. Key screens in light and dark.
 *
 * The month is pinned (June 2025): the demo's history is fixed (2024-01 to 2026-10), so the
 * month's transactions and positions do not move with today's date.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobInfo } from '../../src/shared/model.ts';
import { launchChromium, watchProblems } from '../support/browser.ts';
import { firstLine, runCliSync, startCli } from '../support/cli-process.ts';
import { waitForJobs } from '../support/jobs.ts';
import { WALLET } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';
import { poll } from '../support/web-session.ts';
import { bothThemes } from './axe.ts';

const PASSWORD = 'correct horse battery';
/** Any free port: the server prints its origin (a fixed port may be held by another test's connection). */
const PORT = '0';
const FROM = '2025-05-31';
const TO = '2025-06-30';
// The pack's scope as it opens: every wallet (here the one, Treasury).
const PERIOD = `All wallets, ${FROM} – ${TO}`;
const dir = tempDir();
const at = ['--data-dir', dir];
let server: ReturnType<typeof startCli>;
let origin = '';
let token = '';
let browser: Browser;
const contexts: BrowserContext[] = [];
const problems: string[] = [];
/** The counterparty the address book's CSV names: the address the wallet sent to most in June. */
let grantee = '';
let bundle = '';

/** An operation called as a script calls it: the preparer's token, no cookie. */
async function api<T>(op: string, input?: unknown): Promise<T> {
  const res = await fetch(`${origin}/api/${op}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: input === undefined ? '' : JSON.stringify(input),
  });
  const envelope = (await res.json()) as { ok: true; result: T } | { ok: false; error: { message: string } };
  if (!envelope.ok) throw new Error(`${op}: ${envelope.error.message}`);
  return envelope.result;
}

/** A person's own browser: the app's address, the sign-in page it sends them to, their name and password. */
async function signIn(name: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
  contexts.push(context);
  const page = await context.newPage();
  const seen = watchProblems(page);
  // A refusal the test provokes is a 403 the console reports; anything else is a problem.
  page.on('close', () => problems.push(...seen.filter((p) => !/status of 403/.test(p)).map((p) => `${name}: ${p}`)));
  await page.goto(`${origin}/`);
  await page.waitForURL(`${origin}/sign-in`);
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('#main').waitFor();
  await poll(() => page.getByTestId('team-strip').textContent()).toContain(`Signed in as ${name}`);
  return page;
}

function closedPeriods(page: Page) {
  return page.getByRole('dialog', { name: 'Settings' }).getByRole('region', { name: 'Closed periods' });
}

beforeAll(async () => {
  // The README's steps, as an operator types them.
  const init = runCliSync([...at, 'server', 'init'], { input: `olive\n${PASSWORD}\n` });
  expect(init.stderr).toBe('');
  expect(init.stdout).toContain('olive is the owner.');
  for (const [name, role] of [
    ['pia', 'preparer'],
    ['abe', 'approver'],
    ['val', 'viewer'],
    ['aud', 'auditor'],
  ] as const) {
    const added = runCliSync([...at, 'users', 'add', name, '--role', role], { env: { FOLIOSCOPE_USER_PASSWORD: PASSWORD } });
    expect(added.status, added.stderr).toBe(0);
  }
  const made = runCliSync([...at, 'users', 'token', 'pia', '--role', 'preparer', '--label', 'month-end script']);
  expect(made.status, made.stderr).toBe(0);
  token = made.stdout.trim();
  server = startCli([...at, 'server', '--port', PORT]);
  origin = await firstLine(server.child, 'server');
  expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

  // The preparer's script: the treasury wallet, its history, and its positions at the month's two ends.
  await api('wallets.add', { address: WALLET, chains: ['eth'], label: 'Treasury' });
  const jobs = [await api<JobInfo>('sync.transactions', { wallet: WALLET })];
  for (const date of [FROM, TO]) jobs.push(await api<JobInfo>('sync.positions', { wallet: WALLET, date }));
  await waitForJobs(() => api<JobInfo[]>('sync.jobs'), jobs, { timeout: 240_000 });
  const rows = (
    await api<{ rows: Array<{ from: string; to: string | null }> }>('timeline.page', {
      wallet: WALLET,
      from: '2025-06-01',
      to: TO,
      limit: 1000,
    })
  ).rows;
  const counts = new Map<string, number>();
  for (const r of rows) if (r.from === WALLET && r.to && r.to !== WALLET) counts.set(r.to, (counts.get(r.to) ?? 0) + 1);
  grantee = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await browser?.close();
  if (server && server.child.exitCode === null) server.child.kill('SIGTERM');
});

describe('a month end by a team, on a team server', () => {
  it('pia (preparer) imports the address book and sets a rule on the name it brought', async () => {
    const pia = await signIn('pia');
    await pia.goto(`${origin}/#/book`);
    const csv = join(dir, 'counterparties.csv');
    writeFileSync(csv, `address,name,tags,ours,chains,note\neth:${grantee},Grantee X,grants,false,,monthly grant\n`);
    await pia.getByLabel('CSV file').setInputFiles(csv);
    await pia.getByRole('button', { name: 'Check the file' }).click();
    await poll(() => pia.getByTestId('import-summary').textContent()).toMatch(/1 to add.*0 errors/);
    await pia.getByRole('button', { name: 'Import 1 row' }).click();
    await poll(() => pia.getByText('Imported: 1 added, 0 updated.').count()).toBe(1);
    // A preparer is offered the edits a viewer is not.
    await poll(() => pia.getByRole('button', { name: 'Edit Grantee X' }).isVisible()).toBe(true);
    expect(await pia.getByRole('button', { name: 'Add wallet' }).isVisible()).toBe(true);

    await pia.goto(`${origin}/#/timeline`);
    await poll(() => pia.locator('[role=row].txn').count()).toBeGreaterThan(5);
    await pia.getByTestId('open-rules').click();
    const rules = pia.getByRole('dialog', { name: 'Categories and rules' });
    await poll(() => rules.isVisible()).toBe(true);
    await rules.getByLabel('Rule name (optional)').fill('Grants to Grantee X');
    const names = rules.getByLabel('Counterparty names in the address book', { exact: true });
    await names.fill('Grantee X');
    await names.press('Enter');
    await rules.getByLabel('Sets category').selectOption({ label: 'Grants' });
    await rules.getByRole('button', { name: 'Save rule' }).click();
    await poll(() => rules.getByTestId('rules-table').textContent()).toContain('Grants to Grantee X');
    await bothThemes(pia, 'team-month-end-pia-rule');
    await pia.close();
  }, 120_000);

  it('val (viewer) is offered no edit anywhere, and an edit asked anyway is refused (403) with the sentence', async () => {
    const val = await signIn('val');
    await val.goto(`${origin}/#/book`);
    const table = val.getByRole('table', { name: 'Address book' });
    await poll(() => table.getByRole('rowheader').allInnerTexts()).toEqual(['Grantee X']);
    // The address book reads whole, with no Edit, Remove, Add or import, and says who changes it.
    await poll(() => val.getByText('A preparer changes these on this team server; you can read them.').count()).toBe(1);
    for (const name of ['Edit Grantee X', 'Remove Grantee X', 'Add a name', 'Check the file'])
      expect(await val.getByRole('button', { name }).count(), name).toBe(0);
    // Nor anywhere else: no Add wallet or Sync now; Settings' schedules and alert rules are read, not added; the preferences are an owner's.
    expect(await val.getByRole('button', { name: 'Add wallet' }).isVisible()).toBe(false);
    expect(await val.getByRole('button', { name: 'Sync now' }).count()).toBe(0);
    await val.getByRole('button', { name: 'Settings' }).click();
    const settings = val.getByRole('dialog', { name: 'Settings' });
    await poll(() => settings.getByText('An owner sets these for everyone on this team server.').count()).toBe(1);
    for (const name of ['Add schedule', 'Add rule', 'Save preferences']) expect(await settings.getByRole('button', { name }).isVisible(), name).toBe(false);
    await bothThemes(val, 'team-month-end-val-settings');
    await val.keyboard.press('Escape');

    // Asked anyway, from her page's own session: the server refuses it, saying why, and nothing changes.
    const asked = await val.evaluate(async (address) => {
      const session = (await (await fetch('api/session')).json()) as { csrf: string };
      const res = await fetch('api/counterparties.save', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Folio-CSRF': session.csrf },
        body: JSON.stringify({ address, name: 'Grantee Y' }),
      });
      return { status: res.status, body: (await res.json()) as { error: { message: string } } };
    }, grantee);
    expect(asked.status).toBe(403);
    expect(asked.body.error.message).toBe(
      'val is signed in as a viewer, and changing the books needs a preparer: ask an owner of this server if you need it. Nothing was changed. (counterparties.save)',
    );
    await val.reload();
    await poll(() => val.getByRole('table', { name: 'Address book' }).getByRole('rowheader').allInnerTexts()).toEqual(['Grantee X']);
    await bothThemes(val, 'team-month-end-val-read-only');
    await val.close();
  }, 120_000);

  it('pia prepares the month’s close, and cannot approve it herself', async () => {
    const pia = await signIn('pia');
    await pia.goto(`${origin}/#/pack?from=${FROM}&to=${TO}`);
    const panel = pia.getByRole('region', { name: 'Period close' });
    await poll(() => panel.getByRole('button', { name: 'Prepare close' }).isVisible()).toBe(true);
    // Her rule is in the month's figures: the grantee's transfers under Grants.
    await poll(() => pia.getByTestId('pack-categories').locator('tbody tr td:first-child').allInnerTexts()).toContain('Grants');
    await panel.getByRole('button', { name: 'Prepare close' }).click();
    await panel.getByRole('button', { name: 'Prepare the close' }).click();
    await poll(() => panel.getByRole('status').textContent()).toBe('Prepared: another person approves or rejects it.');
    await poll(() => panel.textContent()).toMatch(/prepared, awaiting approval\s+on .* by pia; waiting for another person’s approval/);
    // A preparer is not offered Approve (nor Reject): an approver decides, and says so.
    await poll(() => panel.getByText('An approver approves or rejects it.').isVisible()).toBe(true);
    expect(await panel.getByRole('button', { name: /^Approve the prepared close of/ }).count()).toBe(0);
    expect(await panel.getByRole('button', { name: /^Reject/ }).count()).toBe(0);
    // And the server refuses it all the same, asked from her page's session.
    const asked = await pia.evaluate(async () => {
      const session = (await (await fetch('api/session')).json()) as { csrf: string };
      const list = (await (await fetch('api/closes.list', { method: 'POST', headers: { 'X-Folio-CSRF': session.csrf }, body: '' })).json()) as {
        result: Array<{ id: number; state: string }>;
      };
      const id = list.result.find((c) => c.state === 'prepared')!.id;
      const res = await fetch('api/closes.approve', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Folio-CSRF': session.csrf },
        body: JSON.stringify({ id }),
      });
      return { status: res.status, body: (await res.json()) as { error: { message: string } } };
    });
    expect(asked.status).toBe(403);
    expect(asked.body.error.message).toMatch(/^pia is signed in as a preparer, and approving, rejecting or reopening a close needs an approver/);
    await bothThemes(pia, 'team-month-end-pia-own');
    await pia.close();
  }, 120_000);

  it('abe (approver) approves it: the close names both', async () => {
    const abe = await signIn('abe');
    await abe.getByRole('button', { name: 'Settings' }).click();
    const section = closedPeriods(abe);
    const rows = section.locator('ul.closes > li');
    await poll(() => rows.count()).toBe(1);
    await section.scrollIntoViewIfNeeded();
    await section.getByRole('button', { name: `Approve the prepared close of ${PERIOD}` }).click();
    const confirm = section.getByRole('group', { name: new RegExp(`^Approve the close of ${PERIOD}\\?`) });
    await poll(() => confirm.isVisible()).toBe(true);
    await bothThemes(abe, 'team-month-end-abe-approve');
    await confirm.getByRole('button', { name: 'Approve and close' }).click();
    await poll(() => section.getByRole('status').textContent()).toBe('Approved: the period is closed.');
    await poll(async () => (await rows.first().innerText()).replace(/\s+/g, ' ')).toMatch(
      new RegExp(`^All wallets · ${FROM} – ${TO} closed Auditor’s bundle Reopen… Prepared .* by pia · approved and closed .* by abe · `),
    );
    await bothThemes(abe, 'team-month-end-abe-approved');
    await abe.close();
  }, 120_000);

  it('aud (auditor) downloads the auditor’s bundle; verify-bundle passes on it and fails, naming the part, on a changed copy', async () => {
    const aud = await signIn('aud');
    await aud.getByRole('button', { name: 'Settings' }).click();
    const section = closedPeriods(aud);
    await poll(() => section.locator('ul.closes > li').count()).toBe(1);
    // An auditor reads and downloads: no Reopen is offered, and no backups or encryption.
    expect(await section.getByRole('button', { name: /^Reopen/ }).count()).toBe(0);
    expect(await aud.getByRole('dialog', { name: 'Settings' }).getByText('Backups and encryption are kept by an owner of this server.').count()).toBe(1);
    await section.scrollIntoViewIfNeeded();
    await bothThemes(aud, 'team-month-end-aud-closed-periods');
    const download = aud.waitForEvent('download');
    await section.getByRole('button', { name: `Download the auditor’s bundle of ${PERIOD}` }).click();
    bundle = join(tempDir(), 'bundle.zip');
    await (await download).saveAs(bundle);

    // The audit trail, read by the auditor: each person's edits, filtered by person.
    const trail = aud.getByRole('dialog', { name: 'Settings' }).getByRole('region', { name: 'Audit trail' });
    const person = trail.getByLabel('Person');
    await poll(() => person.locator('option').allTextContents()).toEqual(expect.arrayContaining(['Everyone', 'pia (4 edits)', 'abe (1 edit)']));
    await person.selectOption('pia');
    await poll(() => trail.getByText('4 of 4 edits shown.').count()).toBe(1);
    const rows = trail.getByRole('table', { name: 'Audit trail' }).locator('tbody tr');
    for (const row of await rows.all()) expect(await row.innerText()).toMatch(/\bpia\b/);
    await trail.scrollIntoViewIfNeeded();
    await bothThemes(aud, 'team-month-end-aud-audit-pia');
    await aud.close();

    // The auditor's own machine: no data folder, no service.
    const nowhere = join(tempDir(), 'never-made');
    const ok = runCliSync(['--data-dir', nowhere, 'verify-bundle', bundle]);
    expect(ok.status, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/OK: the bundle is the data its close hashed\./);
    const manifest = JSON.parse(strFromU8(unzipSync(readFileSync(bundle))['manifest.json']!)) as { close: Record<string, unknown> };
    expect(manifest.close).toMatchObject({ from: FROM, to: TO, preparedBy: 'pia', approvedBy: 'abe' });

    const files = unzipSync(readFileSync(bundle));
    const lines = strFromU8(files['parts/transactions.txt']!).split('\n');
    // The first transaction that moved a token: the first digit of its quantity changed.
    const i = lines.findIndex((l, n) => n > 1 && /\\"qty\\":\d/.test(l));
    expect(i).toBeGreaterThan(1);
    lines[i] = lines[i]!.replace(/(\\"qty\\":)(\d)/, (_m, head: string, d: string) => `${head}${(Number(d) + 1) % 10}`);
    files['parts/transactions.txt'] = strToU8(lines.join('\n'));
    const copy = join(tempDir(), 'changed.zip');
    writeFileSync(copy, zipSync(files));
    const bad = runCliSync(['--data-dir', nowhere, 'verify-bundle', copy]);
    expect(bad.status).toBe(1);
    expect(bad.stdout).toContain('- part "transactions": differs from the close');
    expect(bad.stdout).not.toMatch(/part "(?!transactions)/);
  }, 120_000);

  it('the audit trail names the person behind every edit, made from the web', async () => {
    server.child.kill('SIGTERM');
    expect((await server.done).status).toBe(0);
    const r = runCliSync([...at, 'audit', '--json']);
    expect(r.status, r.stderr).toBe(0);
    const entries = JSON.parse(r.stdout) as Array<{ entity: string; action: string; person: string; via: string }>;
    const edits = entries.map((e) => `${e.entity} ${e.action} ${e.person} ${e.via}`);
    // Newest first: every edit made on the server names its person, from the web; the people
    // and the script's token were made on the command line, by this machine's account.
    expect(edits.filter((e) => e.endsWith(' web'))).toEqual([
      'period approve abe web',
      'period prepare pia web',
      'rule create pia web',
      'counterparty create pia web',
      'wallet create pia web',
    ]);
    expect(entries.filter((e) => e.via !== 'web').map((e) => `${e.entity} ${e.action} ${e.via}`)).toEqual([
      'api-token create cli',
      ...Array<string>(5).fill('person create cli'),
    ]);
    expect(entries.some((e) => e.person === 'val' || e.person === 'aud')).toBe(false);
    expect(problems).toEqual([]);
  }, 120_000);
});
