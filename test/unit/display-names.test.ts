import { describe, expect, it } from 'vitest';
import { displayName } from '../../src/shared/display-names.ts';

/** One way to write a service id on the screens and in the PDF (issue 39: "Aave v3" beside "Aave V3"). */
describe('displayName', () => {
  it('writes a version as the protocols do', () => {
    expect(displayName('aave_v3')).toBe('Aave V3');
    expect(displayName('uniswap_v3')).toBe('Uniswap V3');
    expect(displayName('compound_v3')).toBe('Compound V3');
    expect(displayName('add_liquidity')).toBe('Add liquidity');
    // Only a "v" that starts a word and is followed by a digit.
    expect(displayName('vault_v2_dev')).toBe('Vault V2 dev');
    expect(displayName('curve_v')).toBe('Curve v');
    expect(displayName(null)).toBe('—');
  });
});
