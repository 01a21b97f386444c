import { describe, expect, it } from 'vitest';
import { formatPath } from '../../src/main/core/service/client.ts';
import { buildUrl, retryAfterMs } from '../../src/main/core/service/http.ts';
import { RequestPacer } from '../../src/main/core/service/pacer.ts';
import { redactText, redactUrl } from '../../src/main/core/service/redact.ts';
import { requestIdFromMessage } from '../../src/shared/service/endpoints.ts';
import { conformance, TRANSACTION } from '../support/spec-tables.ts';

describe('redaction', () => {
  it('replaces the access key in URLs, and any occurrence of the key in text', () => {
    const url = buildUrl('https://api.example.org/base/', 'allPositions', { wallet: '0xabc', chains: 'eth', date: undefined }, 's3cr3t/+key');
    expect(url.toString()).toBe('https://api.example.org/base/v2/portfolio/all_positions?wallet=0xabc&chains=eth&access_key=s3cr3t%2F%2Bkey');
    expect(redactUrl(url)).toBe('https://api.example.org/base/v2/portfolio/all_positions?wallet=0xabc&chains=eth&access_key=REDACTED');
    expect(redactText(`failed ${url.toString()} with s3cr3t/+key`, 's3cr3t/+key')).toBe(
      'failed https://api.example.org/base/v2/portfolio/all_positions?wallet=0xabc&chains=eth&access_key=REDACTED with REDACTED',
    );
  });
});

describe('Retry-After', () => {
  it('reads seconds and HTTP dates', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs('Wed, 21 Oct 2026 07:28:10 GMT', Date.parse('Wed, 21 Oct 2026 07:28:00 GMT'))).toBe(10_000);
    expect(retryAfterMs(null)).toBeNull();
    expect(retryAfterMs('soon')).toBeNull();
  });
});

describe('helpers', () => {
  it('formats JSON paths and reads request ids', () => {
    expect(formatPath(['data', 0, 'positions', 3, 'nav'])).toBe('data[0].positions[3].nav');
    expect(requestIdFromMessage('Get logs (ID: 7f3a-1) succeed.')).toBe('7f3a-1');
    expect(requestIdFromMessage('something else')).toBeNull();
  });

  it('the request budget runs at most its limit at once, in order', async () => {
    const limiter = new RequestPacer({ concurrency: 2 });
    const order: number[] = [];
    let peak = 0;
    await Promise.all(
      [1, 2, 3, 4, 5].map((n) =>
        limiter.run(async () => {
          peak = Math.max(peak, limiter.active);
          await new Promise((r) => setTimeout(r, 5));
          order.push(n);
        }),
      ),
    );
    expect(peak).toBe(2);
    expect(order).toEqual([1, 2, 3, 4, 5]);
    expect(limiter.active).toBe(0);
  });

  it('the spec-table checker catches missing, extra and mistyped members', () => {
    const problems = conformance({ txn_hash: 1, extra: true, details: [{}] }, TRANSACTION);
    expect(problems).toContain('txn_hash: expected string, got 1');
    expect(problems).toContain('extra: not in the spec');
    expect(problems).toContain('block: missing');
    expect(problems).toContain('details[0].qty: missing');
  });
});
