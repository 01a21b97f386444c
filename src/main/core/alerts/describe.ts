/** An alert rule's condition in words, as the CLI lists rules and a data file's import previews them. */
import type { AlertCondition } from '../../../shared/model.ts';

export function describeCondition(c: AlertCondition): string {
  switch (c.kind) {
    case 'health':
      return `health below ${c.below}`;
    case 'unlock':
      return `unlock within ${c.withinDays} day${c.withinDays === 1 ? '' : 's'}`;
    case 'nav-move':
      return `NAV move above ${c.percent} %`;
    case 'outflow':
      return `outflow of ${c.symbol} above ${c.above}`;
    case 'new-counterparty':
      return 'outflow to a new counterparty';
    case 'stale':
      return `sync stale or incomplete for ${c.hours} h`;
  }
}
