import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/**
 * A real HTTP server playing a hostile or broken service, for the security tests: it
 * records every request as received (query string included, so a leaked key shows) and
 * answers with whatever the test sets, echoing the access key it was sent where asked.
 */
export interface HostileService {
  url: string;
  /** Every request's path and query, as received. */
  seen: string[];
  /** The answer to every request: status and a body, where `{key}` becomes the access_key received. */
  answer: { status: number; body: string };
  /** Answers per path (the part before `?`), taking precedence over `answer`. */
  byPath: Map<string, { status: number; body: string }>;
  close(): Promise<void>;
}

export async function startHostileService(answer = { status: 401, body: '{"message":"access key {key} is not valid"}' }): Promise<HostileService> {
  const seen: string[] = [];
  const service = { answer, byPath: new Map() } as HostileService;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    seen.push(req.url ?? '');
    const key = new URL(req.url ?? '/', 'http://x').searchParams.get('access_key') ?? '';
    const answer = service.byPath.get((req.url ?? '').split('?')[0]!) ?? service.answer;
    const body = answer.body.replaceAll('{key}', key);
    res.writeHead(answer.status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  service.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  service.seen = seen;
  service.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return service;
}

const CLI = join(import.meta.dirname, '../../bin/folioscope.mjs');

/**
 * The real CLI in a child process, without blocking this process's event loop (the test's
 * own servers keep answering while it runs). FOLIOSCOPE_* variables come only from `env`.
 */
export function cliAsync(
  args: string[],
  o: { env?: Record<string, string>; input?: string } = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith('FOLIOSCOPE_')) delete env[k];
  Object.assign(env, o.env);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr: stderr.replace(/.*dbus-daemon.*\n/g, '') });
    });
    child.stdin.end(o.input ?? '');
  });
}
