import { afterAll, beforeAll } from 'vitest';
import { type Simulator, type SimulatorOptions, startSimulator } from '../../src/sim/server.ts';

export const KEY = 'test-key-9f8e7d';
export const WALLET = '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c';
export const WALLET_2 = '0x00000000219ab540356cbb839cbe05303d7705fa';
/** A fixed clock for the simulator, so "today" does not move under the tests. */
export const SIM_NOW = Date.UTC(2026, 10, 20, 12);

/** Starts a simulator on loopback for the file's tests and stops it after them. */
export function useSimulator(options: Partial<SimulatorOptions> = {}): {
  sim: Simulator;
  get: (path: string, params?: Record<string, string>) => Promise<{ status: number; json: any; headers: Headers }>;
} {
  const ctx = {} as { sim: Simulator; get: (path: string, params?: Record<string, string>) => Promise<{ status: number; json: any; headers: Headers }> };
  beforeAll(async () => {
    ctx.sim = await startSimulator({ accessKey: KEY, seed: 7, now: () => SIM_NOW, ...options });
    ctx.get = async (path, params = {}) => {
      const url = new URL(ctx.sim.url + path);
      for (const [k, v] of Object.entries({ access_key: KEY, ...params })) url.searchParams.set(k, v);
      const res = await fetch(url);
      const text = await res.text();
      return { status: res.status, json: JSON.parse(text), headers: res.headers };
    };
  });
  afterAll(async () => {
    await ctx.sim?.close();
  });
  return ctx;
}

/**
 * The conventions matrix's readings under which a service lists transactions in time order
 * (src/sim/conventions.ts): the live modes are tried under each (the defaults apart).
 */
export const TIME_ORDERED_READINGS: readonly string[][] = [
  ['order=oldest-first'],
  ['time-unit=ms'],
  ['bounds=exclusive'],
  ['page-base=0'],
  ['bounds=half-open', 'page-base=0'],
  ['page-base=0', 'time-unit=ms'],
  ['past-end=repeat-last'],
  ['page-size-cap=100'],
  ['datetime=unix-ms'],
  ['datetime=offset-east'],
];
