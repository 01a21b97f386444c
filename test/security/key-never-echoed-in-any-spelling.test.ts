import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient } from '../../src/main/core/service/client.ts';
import { AuthError, RequestError, ServerError, ServiceError, ServiceStatusError } from '../../src/main/core/service/errors.ts';
import { redactText } from '../../src/main/core/service/redact.ts';
import { createCore } from '../../src/main/core/app.ts';
import { type Simulator, startSimulator } from '../../src/sim/server.ts';
import { type EchoRequest, type EchoService, spellings, startEchoService } from '../support/echo-service.ts';
import { cliAsync } from '../support/hostile-service.ts';
import { KEY as SIM_KEY, SIM_NOW, WALLET } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';
import { waitForJobs } from '../support/jobs.ts';

/**
 * Finding: a key the service echoed in another spelling than the two the redactor knew (the
 * URLSearchParams form the client sends, lower-case or double escapes, \u escapes, HTML
 * references) stayed in error messages, the CLI's FAILED line, the cache and the exports; and
 * the service's error text was cut to length before the key was removed, so a key across the
 * cut left its first characters.
 */
const KEYS = [
  'tk~Q7(v)9!5e1f', // URLSearchParams escapes ~ ( ) ! where encodeURIComponent does not
  'Zm9vYmFy/K+ey=Q3x', // base64: / + = percent-escaped
  'Kлюч€😀%41&q=1+"<b>\\;', // non-ASCII (UTF-8 bytes), a literal %41, & = + " < > \
];
/** The keys the app takes (printable ASCII: a key of other characters is refused where it enters, test/security/long-and-unusual-keys). */
const TAKEN = KEYS.filter((k) => /^[\x21-\x7e]+$/.test(k));
const DATE = '2025-06-01';
const POSITIONS = '/v2/portfolio/all_positions';

let sim: Simulator;
let echo: EchoService;
beforeAll(async () => {
  sim = await startSimulator({ accessKey: SIM_KEY, seed: 7, now: () => SIM_NOW });
  echo = await startEchoService(47120, { url: sim.url, key: SIM_KEY });
});
afterAll(async () => {
  await echo.close();
  await sim.close();
});

/** Every form of the key a leak could take: each spelling as written in the body and as JSON decodes it. */
function forms(key: string, sent: string): string[] {
  return [key, ...spellings(key, sent).flatMap(([, raw]) => [raw, JSON.parse(`"${raw}"`) as string])];
}
const sentOf = (key: string): string => new URLSearchParams({ access_key: key }).toString().slice('access_key='.length);
function expectNoForm(text: string, key: string): void {
  for (const form of forms(key, sentOf(key))) expect(text, `holds ${JSON.stringify(form)}`).not.toContain(form);
}
const count = (text: string, word: string): number => text.split(word).length - 1;

/** A real answer of the reference service with one position named with `raw` (JSON text). */
async function positionsNamed(req: EchoRequest, raw: string) {
  const real = await req.upstream();
  const body = JSON.parse(real.body) as { data: Array<{ positions: Array<{ name: string }> }> };
  body.data[0]!.positions[0]!.name = '@@NAME@@';
  return { status: 200, body: JSON.stringify(body).replace('"@@NAME@@"', `"Pool ${raw}"`) };
}

type Kind = '401' | '400' | '500' | '200 not OK' | '200 position name';
const KINDS: Kind[] = ['401', '400', '500', '200 not OK', '200 position name'];

/** The echo service's answer of one kind, with `raw` (one spelling, or all) where the key goes. */
async function answer(kind: Kind, req: EchoRequest, raw: string, status = raw) {
  switch (kind) {
    case '401':
      return { status: 401, body: `{"message":"access key ${raw} is not valid"}` };
    case '400':
      return { status: 400, body: `{"message":"bad parameter ${raw}","parameter":"access_key=${raw}"}` };
    case '500':
      return { status: 500, body: `{"message":"internal error for ${raw}"}` };
    case '200 not OK':
      return { status: 200, body: `{"status":"DENIED ${status}","message":"the key ${raw} is not allowed","data":[]}` };
    case '200 position name':
      return req.path === POSITIONS ? positionsNamed(req, raw) : req.upstream();
  }
}

describe('the key is removed in every spelling a server can write it', { timeout: 120_000 }, () => {
  for (const key of KEYS) {
    for (const [name] of spellings(key, sentOf(key))) {
      it(`${JSON.stringify(key)} echoed ${name}: no error, parsed value or stored body holds it`, async () => {
        const client = createServiceClient({ baseUrl: echo.url, accessKey: key, policy: { maxAttempts: 1 } });
        for (const kind of KINDS) {
          echo.answer = (req) => {
            const raw = Object.fromEntries(spellings(req.key, req.sent))[name]!;
            return answer(kind, req, raw);
          };
          const outcome = await client.allPositions({ wallet: WALLET, chain: 'eth', date: DATE }).then(
            (res) => res,
            (err: unknown) => err,
          );
          if (kind === '200 position name') {
            expect(outcome, kind).not.toBeInstanceOf(Error);
            const res = outcome as Awaited<ReturnType<typeof client.allPositions>>;
            expect(res.data[0]!.positions[0]!.name).toBe('Pool REDACTED');
            expect((JSON.parse(res.body) as { data: Array<{ positions: Array<{ name: string }> }> }).data[0]!.positions[0]!.name).toBe('Pool REDACTED');
            expectNoForm(JSON.stringify(res.data) + res.body + res.message, key);
            continue;
          }
          expect(outcome, kind).toBeInstanceOf(ServiceError);
          const err = outcome as ServiceError;
          expect(err).toBeInstanceOf({ '401': AuthError, '400': RequestError, '500': ServerError, '200 not OK': ServiceStatusError }[kind]);
          expect(err.message, kind).toContain('REDACTED');
          expectNoForm(err.message + JSON.stringify(err.toJSON()) + ((err as RequestError).parameter ?? ''), key);
          if (err instanceof RequestError) expect(err.parameter).toBe('access_key=REDACTED');
        }
      });
    }
  }
});

describe('the key is removed before the service text is cut to length', { timeout: 120_000 }, () => {
  const key = KEYS[0]!;
  it('a key across the cut of a message, a parameter or a status leaves none of its characters', async () => {
    const client = createServiceClient({ baseUrl: echo.url, accessKey: key, policy: { maxAttempts: 1 } });
    const head = key.slice(0, 4);
    for (const [kind, body] of [
      // The message is cut to 300 characters, the parameter to 100, the status to 100.
      ['401', `{"message":"${'m'.repeat(296)}{key} more"}`],
      ['400', `{"message":"${'m'.repeat(296)}{key}","parameter":"${'p'.repeat(96)}{key}"}`],
      ['500', `{"message":"${'m'.repeat(297)}{key}"}`],
      ['200', `{"status":"${'S'.repeat(96)}{key}","message":"${'m'.repeat(296)}{key}","data":[]}`],
    ] as const) {
      for (const [name] of spellings(key, sentOf(key))) {
        echo.answer = (req) => ({ status: Number(kind), body: body.replaceAll('{key}', Object.fromEntries(spellings(req.key, req.sent))[name]!) });
        const err = (await client.allPositions({ wallet: WALLET, chain: 'eth', date: DATE }).catch((e: unknown) => e)) as ServiceError;
        expect(err, `${kind} ${name}`).toBeInstanceOf(ServiceError);
        const shown = [err.message, (err as RequestError).parameter, (err as ServiceStatusError).serviceStatus].filter(Boolean).join('\n');
        // What follows each run of filler is the start of REDACTED (or nothing), never the key's.
        const after = [...shown.matchAll(/([mpS])\1{19,}(.?)/g)].map((m) => m[2]);
        expect(after.length, shown).toBeGreaterThan(0);
        for (const next of after) expect(next, `${kind} ${name}: ${shown}`).toMatch(/^R?$/);
        expect(shown).not.toContain(head);
      }
    }
  });
});

/** Every byte of every file in the data folder (the cache, its WAL, app.json), as text. */
function folderBytes(dir: string): string {
  return readdirSync(dir)
    .map((f) => readFileSync(join(dir, f)).toString('utf8'))
    .join('\n');
}

describe('through the CLI: FAILED lines, the cache file and the positions CSV', { timeout: 240_000 }, () => {
  for (const key of TAKEN) {
    for (const kind of ['401', '500', '200 not OK', '200 position name'] as const) {
      it(`${JSON.stringify(key)}, every spelling at once in a ${kind}`, async () => {
        const all = spellings(key, sentOf(key));
        echo.answer = (req) => {
          const raws = spellings(req.key, req.sent).map(([, raw]) => raw);
          return answer(kind, req, raws.join(' | '), raws[1]);
        };
        const dir = tempDir();
        const g = ['--data-dir', dir, '--base-url', echo.url];
        const added = await cliAsync([...g, 'wallet', 'add', WALLET, '--chains', 'eth']);
        expect(added.status, added.stderr).toBe(0);
        const env = { FOLIOSCOPE_ACCESS_KEY: key };
        const r = await cliAsync([...g, 'sync', '--no-transactions', '--date', DATE], { env });
        expectNoForm(r.stdout + r.stderr, key);
        if (kind === '200 position name') {
          expect(r.status, r.stdout + r.stderr).toBe(0);
          const out = join(dir, 'positions.csv');
          const x = await cliAsync([...g, 'export', 'csv', '--report', 'positions', '--date', DATE, '--out', out], { env });
          expect(x.status, x.stderr).toBe(0);
          const csv = readFileSync(out, 'utf8');
          // Every spelling became one REDACTED; the rest of the name and the snapshot are intact.
          expect(csv).toContain(`Pool ${Array(all.length).fill('REDACTED').join(' | ')}`);
          expect(csv.split('\n').length).toBeGreaterThan(3);
          expectNoForm(csv, key);
          const pdf = join(dir, 'report.pdf');
          const y = await cliAsync([...g, 'export', 'pdf', '--date', DATE, '--out', pdf], { env });
          expect(y.status, y.stderr).toBe(0);
          const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
          expect(text).toContain('REDACTED');
          expectNoForm(text, key);
        } else {
          expect(r.status).toBe(1);
          const failed = r.stdout.split('\n').find((l) => l.includes('FAILED'));
          expect(failed, r.stdout).toBeDefined();
          // Each spelling was seen and removed, none cut away unseen.
          expect(count(failed!, 'REDACTED'), failed).toBe(all.length + (kind === '200 not OK' ? 1 : 0));
        }
        expectNoForm(folderBytes(dir), key);
      });
    }
  }
});

describe('in the app: events and statuses the renderer sees', { timeout: 120_000 }, () => {
  it('every spelling at once, in a 200 that is not OK and in a 401', async () => {
    for (const key of TAKEN) {
      for (const kind of ['200 not OK', '401'] as const) {
        echo.answer = (req) => {
          const raws = spellings(req.key, req.sent).map(([, raw]) => raw);
          return answer(kind, req, raws.join(' | '), raws[2]);
        };
        const core = await createCore({ dataDir: tempDir(), shell: 'web', baseUrl: echo.url, env: { FOLIOSCOPE_ACCESS_KEY: key } });
        const events: string[] = [];
        core.on('sync.progress', (p) => events.push(JSON.stringify(p)));
        try {
          await core.call('wallets.add', { address: WALLET, chains: ['eth'] });
          const job = await core.call('sync.positions', { wallet: WALLET, date: DATE });
          await expect(waitForJobs(core, [job])).rejects.toThrow(/REDACTED/);
          const shown = JSON.stringify([events, await core.dispatch('wallets.status', undefined), await core.dispatch('sync.jobs', undefined)]);
          expect(shown).toContain('REDACTED');
          expectNoForm(shown, key);
        } finally {
          await core.close();
        }
      }
    }
  });
});

describe('further spellings and places', { timeout: 60_000 }, () => {
  it('a key spelled as a member name is renamed REDACTED; the rest of the body is kept', async () => {
    const key = KEYS[1]!;
    const client = createServiceClient({ baseUrl: echo.url, accessKey: key, policy: { maxAttempts: 1 } });
    for (const [name] of spellings(key, sentOf(key))) {
      echo.answer = async (req) => {
        const raw = Object.fromEntries(spellings(req.key, req.sent))[name]!;
        const real = await req.upstream();
        return { status: 200, body: real.body.replace('"positions":[{', `"positions":[{"${raw}":"you sent it",`) };
      };
      const res = await client.allPositions({ wallet: WALLET, chain: 'eth', date: DATE });
      expect(res.data[0]!.positions[0], name).toHaveProperty('REDACTED', 'you sent it');
      expectNoForm(JSON.stringify(res.data) + res.body, key);
    }
  });

  it('a key laid across the JSON structure fails the response rather than be stored broken', async () => {
    const key = 'ab12","cd34ef';
    const client = createServiceClient({ baseUrl: echo.url, accessKey: key, policy: { maxAttempts: 1 } });
    echo.answer = () => ({ status: 200, body: `{"status":"OK","message":"${key}":1,"data":[]}` });
    const err = (await client.allPositions({ wallet: WALLET, chain: 'eth', date: DATE }).catch((e: unknown) => e)) as ServiceError;
    expect(err).toBeInstanceOf(ServiceError);
    expect(err.message).toMatch(/the access key appears in it across values; nothing of this response was kept/);
    expectNoForm(err.message, key);
  });

  it('Latin-1, %uXXXX, + for a space and a space for + (keys the app cannot take, spelled all the same)', () => {
    const cases: Array<[string, string[]]> = [
      ['clé€-secrète-42', ['cl%E9%u20AC-secr%e8te-42', 'cl%C3%A9%E2%82%AC-secr%C3%A8te-42', 'CL&#xE9;&EURO;-SECRÈTE-42'.replace('&EURO;', '&#8364;')]],
      ['a b+c d e f g h', ['a+b%2Bc+d+e+f+g+h', 'a%20b%2bc%20d%20e%20f%20g%20h', 'a b c d e f g h', 'a%2Bb%252Bc%2Bd%2Be%2Bf%2Bg%2Bh']],
    ];
    for (const [key, spelled] of cases) for (const s of spelled) expect(redactText(`<${s}>`, key), s).toBe('<REDACTED>');
  });

  it('text that is not the key stays as it was, byte for byte', () => {
    const key = KEYS[0]!;
    const near = ['tk~Q7(v)9!5e1', 'tk~Q7(v)9!5e1g', 'tk%7EQ7%28v%299%215e1', `tk~Q7(v)9!5e1${'%'}`, 'tk\\u007eQ7(v)9!5e1'];
    for (const text of near) expect(redactText(text, key)).toBe(text);
  });
});
