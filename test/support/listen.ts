import type { Server } from 'node:net';

/**
 * Listens on 127.0.0.1 at the first free port from `first` to `last` (each test file keeps to
 * a range of its own, so files running side by side never take each other's ports).
 */
export async function listenFrom(server: Server, first: number, last: number): Promise<number> {
  for (let port = first; port <= last; port++) {
    const ok = await new Promise<boolean>((resolve, reject) => {
      const onError = (err: NodeJS.ErrnoException) => (err.code === 'EADDRINUSE' ? resolve(false) : reject(err));
      server.once('error', onError);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', onError);
        resolve(true);
      });
    });
    if (ok) return port;
  }
  throw new Error(`no free port from ${first} to ${last}`);
}
