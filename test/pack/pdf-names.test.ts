import { spawnSync } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writePackPdf } from '../../src/main/core/reports/pack-pdf.ts';
import type { MonthlyPack, PackCounterpartyLine } from '../../src/shared/pack.ts';
import { tempDir } from '../support/store.ts';

/**
 * The pack's PDF prints a name in Arabic, Hebrew, CJK, Korean or Thai in an embedded font (issue
 * 39 item 3); a name in a script no embedded font has (Ethiopic) would print as question marks, so two such names
 * would read alike to an auditor: the address goes beside it. A name that prints, Latin or not,
 * and a category stay as they are.
 */
const line = (key: string, label: string, kind: PackCounterpartyLine['kind']): PackCounterpartyLine => ({
  key,
  label,
  kind,
  inflow: 0,
  outflow: 100,
  transfers: 1,
  unvalued: 0,
});
const A = '0x' + 'a1'.repeat(20);
const B = '0x' + 'b2'.repeat(20);
const C = '0x' + 'c3'.repeat(20);
const D = '0x' + 'd4'.repeat(20);

describe("the pack's PDF names counterparties it cannot print by their address too", () => {
  it('puts the address beside a name no font prints, not beside a CJK or a Latin one', async () => {
    const pack: MonthlyPack = {
      from: '2026-09-30',
      to: '2026-10-31',
      scope: 'All wallets',
      wallets: [],
      opening: 1000,
      closing: 700,
      change: -300,
      inflows: 0,
      outflows: 300,
      protocolIn: 0,
      protocolOut: 0,
      internal: 0,
      accruals: 0,
      priceEffect: 0,
      other: 0,
      byCategory: [{ key: '東京', label: '東京', inflow: 0, outflow: 300, transfers: 3, unvalued: 0 }],
      byCounterparty: [line(A, 'ገንዘብ ቤት', 'book'), line(B, '大阪商事', 'book'), line(C, 'Grantee X', 'book'), line(D, 'กองทุนหนึ่ง', 'book')],
      byWallet: [],
      byProtocol: [],
      byChain: [],
      tokens: [],
      unpriced: [],
      unknownOutflows: 0,
      spamTransactions: 0,
      spamPositions: { opening: { count: 0, claimed: null }, closing: { count: 0, claimed: null } },
      complete: true,
      reasons: [],
    };
    const file = join(tempDir(), 'pack.pdf');
    await writePackPdf(pack, { at: '2026-10-31T23:59:59.000Z', labels: new Map() }, createWriteStream(file));
    expect(readFileSync(file).length).toBeGreaterThan(0);
    // In the order drawn, without the line breaks of a wrapped cell.
    const text = spawnSync('pdftotext', ['-raw', file, '-'], { encoding: 'utf8' }).stdout.replace(/\s+/g, '');
    expect(text).toContain(`(${A})`);
    expect(text).not.toContain(`(${B})`);
    expect(text).toContain('大阪商事');
    expect(text).toContain('東京');
    expect(text).not.toContain(`(${C})`);
    expect(text).toContain('GranteeX');
    // Thai prints (Noto Sans Thai): no address beside it.
    expect(text).toContain('กองทุนหนึ่ง');
    expect(text).not.toContain(`(${D})`);
  });
});
