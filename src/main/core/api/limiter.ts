/**
 * A counting semaphore: at most `limit` tasks run at once, the rest wait in order.
 * One is shared by every call of a client, so syncs and on-demand reads together never
 * exceed the configured concurrency.
 */
export class Limiter {
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('concurrency limit must be a positive integer');
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      // Hand the slot straight to the next waiter, so `running` never over-counts.
      if (next) next();
      else this.running--;
    }
  }

  get active(): number {
    return this.running;
  }
}
