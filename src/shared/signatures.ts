/**
 * Small tables of well-known contract methods (4-byte selectors) and event topics, shipped
 * with the app so the timeline can name a method and decode common event logs without any
 * network lookup. Unknown selectors and topics stay raw; the raw data is always kept.
 */

/** keccak256 selector → method signature. */
export const METHODS: Readonly<Record<string, string>> = {
  '0xa9059cbb': 'transfer(address,uint256)',
  '0x23b872dd': 'transferFrom(address,address,uint256)',
  '0x095ea7b3': 'approve(address,uint256)',
  '0x3593564c': 'execute(bytes,bytes[],uint256)',
  '0x24856bc3': 'execute(bytes,bytes[])',
  '0x38ed1739': 'swapExactTokensForTokens(uint256,uint256,address[],address,uint256)',
  '0x7ff36ab5': 'swapExactETHForTokens(uint256,address[],address,uint256)',
  '0x18cbafe5': 'swapExactTokensForETH(uint256,uint256,address[],address,uint256)',
  '0x414bf389': 'exactInputSingle((address,address,uint24,address,uint256,uint256,uint256,uint160))',
  '0xc04b8d59': 'exactInput((bytes,address,uint256,uint256,uint256))',
  '0x12aa3caf': 'swap(address,(address,address,address,address,uint256,uint256,uint256),bytes,bytes)',
  '0x3df02124': 'exchange(int128,int128,uint256,uint256)',
  '0xac9650d8': 'multicall(bytes[])',
  '0x5ae401dc': 'multicall(uint256,bytes[])',
  '0xd0e30db0': 'deposit()',
  '0x2e1a7d4d': 'withdraw(uint256)',
  '0x617ba037': 'supply(address,uint256,address,uint16)',
  '0x69328dec': 'withdraw(address,uint256,address)',
  '0xa415bcad': 'borrow(address,uint256,uint256,uint16,address)',
  '0x573ade81': 'repay(address,uint256,uint256,address)',
  '0x4e71d92d': 'claim()',
  '0xa1903eab': 'submit(address)',
  '0xb6b55f25': 'deposit(uint256)',
  '0xe9fad8ee': 'exit()',
  '0x3d18b912': 'getReward()',
};

export interface EventSpec {
  name: string;
  /** Indexed parameters (topics 1…), then the data words, in order. */
  indexed: Array<{ name: string; type: 'address' | 'uint256' | 'int256' }>;
  data: Array<{ name: string; type: 'address' | 'uint256' | 'int256' | 'uint160' | 'uint128' | 'int24' | 'uint112' }>;
}

/** keccak256 of the event signature (topic 0) → how to read the rest. */
export const EVENTS: Readonly<Record<string, EventSpec>> = {
  '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef': {
    name: 'Transfer',
    indexed: [
      { name: 'from', type: 'address' },
      { name: 'to', type: 'address' },
    ],
    data: [{ name: 'value', type: 'uint256' }],
  },
  '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925': {
    name: 'Approval',
    indexed: [
      { name: 'owner', type: 'address' },
      { name: 'spender', type: 'address' },
    ],
    data: [{ name: 'value', type: 'uint256' }],
  },
  '0xd78ad95fa46c994b6551d0da85fc275fe613ce37657fb8d5e3d130840159d822': {
    name: 'Swap',
    indexed: [
      { name: 'sender', type: 'address' },
      { name: 'to', type: 'address' },
    ],
    data: [
      { name: 'amount0In', type: 'uint256' },
      { name: 'amount1In', type: 'uint256' },
      { name: 'amount0Out', type: 'uint256' },
      { name: 'amount1Out', type: 'uint256' },
    ],
  },
  '0xc42079f94a6350d7e6235f29174924f928cc2ac818eb64fed8004e115fbcca67': {
    name: 'Swap',
    indexed: [
      { name: 'sender', type: 'address' },
      { name: 'recipient', type: 'address' },
    ],
    data: [
      { name: 'amount0', type: 'int256' },
      { name: 'amount1', type: 'int256' },
      { name: 'sqrtPriceX96', type: 'uint160' },
      { name: 'liquidity', type: 'uint128' },
      { name: 'tick', type: 'int24' },
    ],
  },
  '0xe1fffcc4923d04b559f4d29a8bfc6cda04eb5b0d3c460751c2402c5c5cc9109c': {
    name: 'Deposit',
    indexed: [{ name: 'dst', type: 'address' }],
    data: [{ name: 'wad', type: 'uint256' }],
  },
  '0x7fcf532c15f0a6db0bd6d0e038bea71d30d808c7d98cb3bf7268a95bf5081b65': {
    name: 'Withdrawal',
    indexed: [{ name: 'src', type: 'address' }],
    data: [{ name: 'wad', type: 'uint256' }],
  },
  '0x1c411e9a96e071241c2f21f7726b17ae89e3cab4c78be50e062b03a9fffbbad1': {
    name: 'Sync',
    indexed: [],
    data: [
      { name: 'reserve0', type: 'uint112' },
      { name: 'reserve1', type: 'uint112' },
    ],
  },
};

/** "transfer" for 0xa9059cbb; null when the selector is not in the table. */
export function methodName(selector: string | null | undefined): string | null {
  if (!selector) return null;
  const sig = METHODS[selector.toLowerCase().slice(0, 10)];
  return sig ? sig.slice(0, sig.indexOf('(')) : null;
}

export function methodSignature(selector: string | null | undefined): string | null {
  return selector ? (METHODS[selector.toLowerCase().slice(0, 10)] ?? null) : null;
}

/** The event a topic 0 names in the table, whatever the rest of the log looks like. */
export function eventName(topic0: unknown): string | null {
  return EVENTS[String(topic0 ?? '').toLowerCase()]?.name ?? null;
}

export interface DecodedLog {
  name: string;
  args: Array<{ name: string; value: string }>;
}

const word = (hex: string) => /^0x[0-9a-fA-F]{64}$/.test(hex);

/**
 * Decodes a log whose topic 0 is in the table and whose topics and data have exactly the
 * shape the event has; anything else returns null (shown raw), never a guess.
 * Amounts are raw integers (token decimals are not known here).
 */
export function decodeLog(topics: readonly unknown[], data: string | null | undefined): DecodedLog | null {
  const spec = EVENTS[String(topics[0] ?? '').toLowerCase()];
  if (!spec || topics.length !== spec.indexed.length + 1 || !topics.every((t) => typeof t === 'string' && word(t))) return null;
  const body = (data ?? '0x').replace(/^0x/, '');
  if (!/^[0-9a-fA-F]*$/.test(body) || body.length !== 64 * spec.data.length) return null;
  const read = (hex: string, type: string): string | null => {
    if (type === 'address') return /^0{24}/.test(hex) ? `0x${hex.slice(24)}` : null;
    const n = BigInt(`0x${hex}`);
    if (type.startsWith('int')) {
      const bits = Number(type.slice(3));
      const signed = n >= 1n << 255n ? n - (1n << 256n) : n;
      return bits < 256 && (signed >= 1n << BigInt(bits - 1) || signed < -(1n << BigInt(bits - 1))) ? null : signed.toString();
    }
    return n.toString();
  };
  const args: DecodedLog['args'] = [];
  for (const [i, p] of spec.indexed.entries()) {
    const v = read((topics[i + 1] as string).slice(2), p.type);
    if (v === null) return null;
    args.push({ name: p.name, value: v });
  }
  for (const [i, p] of spec.data.entries()) {
    const v = read(body.slice(64 * i, 64 * i + 64), p.type);
    if (v === null) return null;
    args.push({ name: p.name, value: v });
  }
  return { name: spec.name, args };
}
