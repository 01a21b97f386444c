import type { AlertInbox } from '../../../shared/model.ts';
import { call, on } from './api.ts';

/**
 * The alerts inbox: what the top bar counts and the Alerts dialog lists. Loaded once, and
 * again when a rule fires, when data changes (a check may have resolved an alert) and after
 * the user acknowledges or snoozes one.
 */
class AlertsState {
  #inbox = $state<AlertInbox>({ alerts: [], unread: 0 });
  #all = $state(false);
  #started = false;

  get inbox(): AlertInbox {
    return this.#inbox;
  }
  /** Whether acknowledged alerts are listed too. */
  get all(): boolean {
    return this.#all;
  }

  start(): void {
    if (this.#started) return;
    this.#started = true;
    void this.reload();
    on('alert.fired', () => void this.reload());
    on('data.changed', () => void this.reload());
  }

  async showAll(all: boolean): Promise<void> {
    this.#all = all;
    await this.reload();
  }

  async reload(): Promise<void> {
    try {
      this.#inbox = await call('alerts.inbox', { ...(this.#all && { all: true }) });
    } catch {
      // The count stays as it was; the next event loads again.
    }
  }

  async acknowledge(id: number): Promise<void> {
    await call('alerts.acknowledge', { id });
    await this.reload();
  }

  async snooze(id: number, hours: number): Promise<void> {
    await call('alerts.snooze', { id, until: new Date(Date.now() + hours * 3_600_000).toISOString() });
    await this.reload();
  }
}

export const alertsState = new AlertsState();
