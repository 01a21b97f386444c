/**
 * The PDFs' fixed texts in German: the same shape as the English source in pdf-words.ts
 * (`PdfWords`), so the typecheck fails on a missing or extra text and
 * test/reports/pdf-words-de.test.ts on an empty or untranslated one. Plurals by German plural
 * rules (`pl`); the words match the German screens (src/renderer/src/lib/words.de.ts), so a
 * reader finds in the PDF the names the app gave. Helvetica prints only WinAnsi: no „low“ quotes
 * here (they would fall to an embedded font), plain "…" as in the English.
 */
import type { PdfFormat } from './pdf-format.ts';
import type { PdfWords } from './pdf-words.ts';
import { germanCoreSentences } from '../../../shared/core-sentences.ts';

const rules = new Intl.PluralRules('de');
/** The singular or the plural for a count, by German plural rules. */
const pl = (count: number, one: string, other: string): string => (rules.select(count) === 'one' ? one : other);

export function german(f: PdfFormat): PdfWords {
  const n = f.count;
  return {
    page: (i, of) => `Seite ${n(i)} von ${n(of)}`,
    utc: (when) => `${when} UTC`,
    member: (label, wallet, chain) => `${label ? `${label} ` : ''}${wallet} auf ${chain}`,
    core: germanCoreSentences(n),
    columns: {
      wallet: 'Wallet',
      chain: 'Chain',
      token: 'Token',
      position: 'Position',
      status: 'Status',
      opening: 'Anfang',
      closing: 'Ende',
      name: 'Name',
    },
    report: {
      docTitle: (group, date) => `Folioscope-Portfoliobericht${group ? ` (${group})` : ''} ${date}`,
      docSubject: (date, period) => `Positionen am ${date}${period ? `, Transaktionen ${period.from ?? '…'} bis ${period.to}` : ''}`,
      footer: (date, fetched) => `Folioscope-Portfoliobericht · Stand ${date} · Daten geladen bis ${fetched} UTC`,
      title: (group) => (group ? `Portfoliobericht: ${group}` : 'Portfoliobericht'),
      subtitle: (date, period) => `Folioscope · Positionen am ${date}${period ? ` · Zeitraum ${period.from ?? 'Anfang'} bis ${period.to}` : ''}`,
      group: 'Gruppe',
      groupValue: (name, members) => `${name} (${n(members)} ${pl(members, 'Mitglied', 'Mitglieder')}; Zahlen nur über ihre Mitglieder)`,
      members: 'Mitglieder',
      wallets: 'Wallets',
      chains: 'Chains',
      asOf: 'Stand',
      period: 'Zeitraum',
      periodValue: (from, to) => `${from ?? 'erstes gespeichertes Datum'} bis ${to}`,
      periodNone: 'keiner (nur Positionen)',
      dataFetched: 'Daten geladen',
      fetchedValue: (from, to) => `${from} UTC bis ${to} UTC, aus dem lokalen Cache`,
      summary: 'Zusammenfassung',
      totalNav: 'NAV gesamt',
      principal: 'Kapital',
      rewards: 'Belohnungen',
      partialMark: ' (teilweise)',
      incompleteMark: ' (unvollständig)',
      spam: (count, claimed, listed, more) =>
        `${n(count)} Spam-Token aus jeder Zahl ausgelassen, angegeben mit ${claimed}: ${listed}${more ? ` Und ${n(more)} weitere.` : ''}`,
      spamItem: (symbol, member, claimed, why) => `${symbol} (${member}, ${claimed}): ${why}`,
      scopePartial: (missing, members, date, list) =>
        `Teilweise: ${n(missing)} der ${n(members)} Wallet-Chains dieses Berichts ${pl(missing, 'ist', 'sind')} am ${date} nicht gespeichert, daher ${pl(missing, 'lässt', 'lassen')} jede Summe, Aufteilung und Tabelle unten sie aus: ${list}. Dieses Datum für sie synchronisieren, dann erneut exportieren.`,
      cachedAt: (dates) => ` (gespeichert am ${dates.join(' und ')}; nicht verwendet)`,
      neverCached: ' (nie gespeichert)',
      unreadable: (values) =>
        `${n(values)} ${pl(values, 'Wert', 'Werte')}, die der Dienst sandte, ${pl(values, 'war', 'waren')} nicht lesbar; ${pl(values, 'er steht', 'sie stehen')} als "-" da und ${pl(values, 'fehlt', 'fehlen')} in jeder Summe.`,
      moments: (chains) =>
        `Die drei Sichten von ${n(chains)} ${pl(chains, 'Wallet-Chain', 'Wallet-Chains')} (Positionen, nach Token, Liquidität) stammen nicht aus einem Moment: der Snapshot des Dienstes änderte sich zwischen den Anfragen, daher passen diese Tabellen womöglich nicht zueinander.`,
      otherDay: 'eine Antwort trug ein anderes Datum als angefragt.',
      quality: (said) => `Datenqualität: ${said} Einzelheiten unter "Datenqualität" unten.`,
      positionsCount: (positions, counted, wallets, chains) =>
        `${n(positions)} ${pl(positions, 'Position', 'Positionen')} über ${counted === null ? '' : `${n(counted)} von `}${n(wallets)} ${pl(wallets, 'Wallet', 'Wallets')} und ${n(chains)} ${pl(chains, 'Chain', 'Chains')}. NAV in USD.`,
      allocation: 'Aufteilung',
      byAssetType: 'Nach Anlageart',
      byProtocol: 'Nach Protokoll',
      byChain: 'Nach Chain',
      positions: 'Positionen',
      protocol: 'Protokoll',
      type: 'Art',
      principalCol: 'Kapital',
      rewardsCol: 'Belohnungen',
      total: (value) => `Summe ${value}`,
      risk: 'Liquidität und Risiko',
      lending: 'Kredite: Schulden, Besicherungsquote und Liquidationsschwelle',
      collateral: 'Sicherheiten',
      debt: 'Schulden',
      ratio: 'Quote',
      liqThreshold: 'Liq.-Schwelle',
      atRisk: 'GEFÄHRDET',
      ok: 'in Ordnung',
      locked: 'Gesperrte Positionen: Freigaben und Stimmrecht',
      lockedCol: 'Gesperrt',
      unlocks: 'Freigabe (UTC)',
      votingPower: 'Stimmrecht',
      pools: 'Liquiditätspools: Anteil und Slippage',
      pool: 'Pool',
      holding: 'Bestand',
      ownership: 'Anteil',
      maxSlippage: 'Max. Slippage',
      transactions: (from, to) => `Transaktionen, ${from ?? 'Anfang'} bis ${to}`,
      transactionsCount: (count) => `${n(count)} ${pl(count, 'Transaktion', 'Transaktionen')} im Zeitraum.`,
      transactionsIncomplete: (list, more) =>
        `Unvollständig: diese Transaktionen sind womöglich nicht alle des Zeitraums. ${list}${more ? '; …' : ''}. Erneut synchronisieren, dann erneut exportieren.`,
      transactionsComplete: 'Vollständig: jede Transaktion des Zeitraums wurde synchronisiert und als vollständig geprüft.',
      action: 'Aktion',
      transactionsCol: 'Transaktionen',
      failedCol: 'Fehlgeschlagen',
      feesUsd: 'Gebühren (USD)',
      totalRow: 'Summe',
      dateUtc: 'Datum (UTC)',
      transfers: 'Überweisungen',
      counterparty: 'Gegenpartei',
      category: 'Kategorie',
      fee: 'Gebühr',
      hash: 'Tx-Hash',
      failed: ' (fehlgeschlagen)',
      byRule: ' (Regel)',
      internal: ' (intern)',
      notListed: (count) => `${n(count)} weitere ${pl(count, 'Transaktion steht', 'Transaktionen stehen')} im CSV-Export.`,
      dataQuality: 'Datenqualität',
      qualityIntro:
        'Werte, die der Dienst sandte und die nicht lesbar waren (keine Zahl, unendlich, außerhalb des Bereichs). Jeder ist als unbekannt gespeichert und fehlt in den Summen; der Rest seiner Antwort wird verwendet.',
      response: 'Antwort',
      where: 'Wo',
      sent: 'Gesendet',
      provenance: 'Herkunft der Daten',
      provenanceIntro:
        'Jede Zahl stammt aus diesen gespeicherten Antworten des Dienstes: die Anfrage-ID, die der Dienst gab, wann sie geladen wurde, und der SHA-256 des Antworttexts wie empfangen.',
      provenanceLine: (wallet, chain, endpoint, asOf, fetched, request) =>
        `${wallet} · ${chain} · ${endpoint} · Stand ${asOf} · geladen ${fetched} UTC · Anfrage ${request}`,
      navOverDates: 'NAV über die Daten',
      fewDates: (count) =>
        `${n(count)} ${pl(count, 'gespeichertes Datum', 'gespeicherte Daten')}: den Verlauf in der App füllen (oder folioscope sync --from … --to …), um NAV über die Daten zu zeichnen.`,
      navSummary: (count, first, last, span) => `${n(count)} gespeicherte Daten, ${first} bis ${last}; ${span}.`,
      navPartial: (partial) =>
        ` An ${n(partial)} ${pl(partial, 'Datum', 'Daten')} fehlt eine Wallet-Chain: ${pl(partial, 'seine Teilsumme ist', 'ihre Teilsummen sind')} als hohle Marken gezeichnet, nicht mit der Linie verbunden.`,
      noWholeDate: 'kein Datum hat jede Wallet-Chain gespeichert',
      span: (from, to) => `von ${from} auf ${to}`,
      wholeSpan: (from, fromDate, to, toDate) => `vollständige Summen von ${from} (${fromDate}) auf ${to} (${toDate})`,
      reconciliation: (from, to) => `Fortschreibung und Abstimmung, ${from} bis ${to}`,
      reconMethod: (from, flowsFrom, flowsTo, to) =>
        `Anfang: zugrunde liegende Mengen aller Positionen am Ende des ${from}. Flüsse: Überweisungen erfolgreicher Transaktionen vom ${flowsFrom} bis ${flowsTo} (UTC). ` +
        `Ende: am Ende des ${to}. Ungeklärt = Ende - Anfang - Zufluss + Abfluss: Zinsen, Rebases, Belohnungen und preisbedingte Änderungen von Pools, oder fehlende Daten. ` +
        'Anteil = |ungeklärt| / (Zufluss + Abfluss).',
      reconMoves: (count) =>
        `${n(count)} ${pl(count, 'Transaktion eröffnete oder schloss', 'Transaktionen eröffneten oder schlossen')} eigene Positionen der Wallets (Einzahlungen, Auszahlungen, aufgenommene oder zurückgezahlte Schulden): ihre Überweisungen bewegten Token zwischen Guthaben und Positionen und stehen nicht im Zu- oder Abfluss.`,
      reconIncomplete: 'Unvollständig: die als "unvollständig" markierten Zeilen beruhen auf fehlenden Daten.',
      problemsNotListed: (count) => `- und ${n(count)} weitere (siehe den CSV-Bericht "reconciliation").`,
      reconComplete: (c) =>
        `Vollständig: ${n(c.tokens)} Token: ${n(c.exact)}, die sich bewegten, ${pl(c.exact, 'stimmt', 'stimmen')} genau, ${n(c.unexplained)} ${pl(c.unexplained, 'zeigt', 'zeigen')} einen ungeklärten Rest.` +
        (c.inPositions
          ? ` ${n(c.inPositions)} weitere ${pl(c.inPositions, 'änderte sich', 'änderten sich')} nur in Protokollpositionen (Zinsen, Rebases, Belohnungen, Preisbewegungen von Pools): ${pl(c.inPositions, 'sein einfaches Guthaben stimmt', 'ihre einfachen Guthaben stimmen')} genau.`
          : ''),
      inflow: 'Zufluss',
      outflow: 'Abfluss',
      unexplained: 'Ungeklärt',
      share: 'Anteil',
      reconStatus: { reconciled: 'stimmt', unexplained: 'ungeklärt', incomplete: 'unvollständig', inPositions: 'in Positionen' },
    },
    pack: {
      docTitle: (scope, from, to) => `Folioscope-Monatsbericht (${scope}) ${from} bis ${to}`,
      docSubject: (from, to) => `NAV-Fortschreibung ${from} bis ${to}`,
      footer: (scope, from, to, closed) => `Folioscope-Monatsbericht · ${scope} · ${from} bis ${to}${closed ? ' · abgeschlossen' : ''}`,
      title: (scope) => `Monatsbericht: ${scope}`,
      subtitle: (from, to) => `Folioscope · NAV vom Ende des ${from} bis zum Ende des ${to}`,
      wallets: 'Wallets',
      period: 'Zeitraum',
      periodValue: (from, flowsFrom, to) => `Anfang am Ende des ${from}; Flüsse erfolgreicher Transaktionen vom ${flowsFrom} bis ${to} (UTC)`,
      status: 'Status',
      people: 'Vorbereitet, freigegeben',
      prepared: (at, by) => `vorbereitet ${at} UTC${by ? ` von ${by}` : ''}`,
      approved: (at, by) => `freigegeben ${at} UTC${by ? ` von ${by}` : ''}`,
      samePerson: 'von derselben Person vorbereitet und freigegeben',
      closed: (at, hash, by) => `abgeschlossen ${at} UTC${by ? ` von ${by}` : ''}: die Zahlen wie abgeschlossen (Daten-Hash ${hash}…)`,
      open: 'offen (nicht abgeschlossen)',
      changedSinceClose:
        'SEIT DEM ABSCHLUSS GEÄNDERT: die Daten hinter diesen Zahlen änderten sich, nachdem der Zeitraum abgeschlossen wurde (die Zahlen sind wie abgeschlossen):',
      partial: 'TEILWEISE: diese Zahlen lassen etwas aus:',
      rollForward: 'NAV-Fortschreibung',
      line: 'Zeile',
      usd: 'USD',
      notCached: 'nicht gespeichert',
      unknown: 'unbekannt',
      lines: {
        opening: (from) => `NAV am Anfang (${from})`,
        received: 'Erhalten (eingehende Überweisungen)',
        sent: 'Gesendet (ausgehende Überweisungen)',
        protocol_moves: 'Handel und Protokollbewegungen (netto)',
        internal: 'Interne Überweisungen (netto)',
        accruals: 'Belohnungen, Zuwächse und Gebühren (ohne Transaktion)',
        price_effect: 'Preiseffekt',
        other: 'Positionen außerhalb der Sicht nach Token, und Rundung',
        closing: (to) => `NAV am Ende (${to})`,
        change: 'Änderung',
        moved_into_positions: 'In eigene Positionen bewegt (Einzahlungen; keine NAV-Änderung)',
        moved_out_of_positions: 'Aus eigenen Positionen bewegt (Auszahlungen; keine NAV-Änderung)',
        debt_drawn: 'Schuld in Guthaben aufgenommen (keine NAV-Änderung)',
        debt_repaid: 'Schuld aus Guthaben zurückgezahlt (keine NAV-Änderung)',
      },
      method:
        'Flüsse sind zu dem Preis bewertet, den die Snapshots für den Token ergeben (NAV / Menge in der Sicht nach Token des Bereichs auf dieser Chain), am gespeicherten Datum, das der Überweisung am nächsten liegt; eine Mengenänderung, die keine Transaktion erklärt (Zinsen, Belohnungen, gezahlte Gebühren), zum Schlusskurs; der Preiseffekt ist der Rest der Änderung jedes Tokens. Token, die zwischen den Guthaben des Bereichs und seinen eigenen Positionen bewegt wurden (die Einzahlung, die eine eröffnet, die Auszahlung, die sie schließt, eine aufgenommene oder zurückgezahlte Schuld), sind keine Flüsse: nach der Änderung benannt, zu den Preisen ihrer Tage, ändern sie keinen NAV.',
      spam: (transactions, held, claimed, openingHeld, openingClaimed) =>
        `Als Spam ausgelassen (Junk-Airdrops, Address Poisoning): ${n(transactions)} ${pl(transactions, 'Transaktion', 'Transaktionen')} des Monats; ${n(held)} Spam-Token am Ende gehalten, angegeben mit ${claimed} (am Anfang ${n(openingHeld)}, angegeben mit ${openingClaimed}), in keiner Zahl oben.`,
      unknownOutflows: (count) =>
        `${n(count)} ${pl(count, 'einfache ausgehende Überweisung ging', 'einfache ausgehende Überweisungen gingen')} an Adressen, die weder im Adressbuch stehen noch beobachtet werden.`,
      aToken: 'Ein Token',
      unpriced: (token, chain, transfers) =>
        `${token} (${chain}): ${n(transfers)} ${pl(transfers, 'Überweisung', 'Überweisungen')} ohne gespeicherten Preis, in keiner Zahl.`,
      allWallets: 'Alle Wallets',
      uncategorised: 'Ohne Kategorie',
      byCategory: 'Flüsse nach Kategorie',
      byCounterparty: 'Flüsse nach Gegenpartei',
      noFlows: 'Keine Flüsse in diesem Zeitraum.',
      kind: 'Art',
      kinds: { book: 'Adressbuch', wallet: 'beobachtete Wallet', unknown: 'UNBEKANNT' },
      in: 'Ein',
      out: 'Aus',
      net: 'Netto',
      transfers: 'Überweisungen',
      unvalued: (count) => ` (+${n(count)} unbewertet)`,
      byWallet: 'Nach Wallet',
      byProtocol: 'Nach Protokoll',
      byChain: 'Nach Chain',
      tokens: 'Token: Werte und verwendete Preise',
      flows: 'Flüsse',
      accrual: 'Zuwachs',
      priceEffect: 'Preiseff.',
      pricesOf: 'Preise vom',
    },
  };
}
