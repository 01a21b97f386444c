import { describe, expect, it } from 'vitest';
import { logAmount, unitsText } from '../../src/shared/log-amounts.ts';

describe('an event log’s amount in token units, read against the transaction’s transfers', () => {
  it('writes an integer with decimals as plain digits', () => {
    expect(unitsText('261474056000000000000', 18)).toBe('261.474056');
    expect(unitsText('1', 18)).toBe('0.000000000000000001');
    expect(unitsText('1500000', 6)).toBe('1.5');
    expect(unitsText('42', 0)).toBe('42');
    expect(unitsText('000120', 2)).toBe('1.2');
  });

  it('finds the transfer the amount is, with the decimals that make it so', () => {
    const transfers = [
      { qty: 261.474056, symbol: 'WETH' },
      { qty: 1250.5, symbol: 'USDC' },
    ];
    expect(logAmount('261474056000000000000', transfers)).toEqual({ units: '261.474056', symbol: 'WETH', decimals: 18 });
    expect(logAmount('1250500000', transfers)).toEqual({ units: '1250.5', symbol: 'USDC', decimals: 6 });
  });

  it('leaves an amount no transfer matches, zero, or text that is not an integer as it is', () => {
    const transfers = [{ qty: 261.474056, symbol: 'WETH' }];
    expect(logAmount('261474057000000000000', transfers)).toBeNull();
    // Within a double's reach of a transfer, the digits written are the log's own, every one.
    expect(logAmount('261474056000000000001', transfers)).toEqual({ units: '261.474056000000000001', symbol: 'WETH', decimals: 18 });
    expect(logAmount('0', [{ qty: 0, symbol: 'X' }])).toBeNull();
    expect(logAmount('12abc', transfers)).toBeNull();
    expect(logAmount('261474056000000000000', [])).toBeNull();
    expect(logAmount('261474056000000000000', [{ qty: null, symbol: 'WETH' }])).toBeNull();
  });
});
