import { Notification } from 'electron';
import type { Core } from '../core/index.ts';
import type { Alert } from '../../shared/model.ts';
import { visibleText } from '../../shared/text-safety.ts';

/** The longest body a notification gets: the OS cuts longer ones anyway, and the inbox has the rest. */
const BODY_MAX = 240;

/**
 * Each alert the core fires, as an OS notification (Electron's, from the main process). Its
 * text comes from the alert (built from the cache, where service text may be anything), with
 * control and text-direction characters made visible. Clicking one calls `onClick` (the app
 * brings its window forward). Notifications are kept until closed: one garbage-collected
 * before it is clicked loses its click on some systems.
 */
export function notifyAlerts(core: Pick<Core, 'on'>, onClick: (alert: Alert) => void = () => undefined): () => void {
  const shown = new Set<Notification>();
  const off = core.on('alert.fired', (alert) => {
    if (!Notification.isSupported()) return;
    const body = visibleText(alert.detail);
    const n = new Notification({ title: visibleText(alert.title), body: body.length > BODY_MAX ? `${body.slice(0, BODY_MAX - 1)}…` : body });
    shown.add(n);
    n.on('click', () => onClick(alert));
    n.on('close', () => shown.delete(n));
    n.show();
  });
  return () => {
    off();
    shown.clear();
  };
}
