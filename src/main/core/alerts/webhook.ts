/**
 * Sends a fired alert to the user's webhook: one JSON POST, a short timeout, no redirect
 * followed, no retry. The body is built from the alert and its rule as the cache keeps them
 * (never from a request or the service's key); a failure is recorded on the alert, never thrown.
 */
import type { Alert, AlertRule } from '../../../shared/model.ts';

export const WEBHOOK_TIMEOUT_MS = 5_000;

/** The payload's format is documented in README ("Alerts"); `version` changes if it ever does. */
export function webhookPayload(alert: Alert, rule: AlertRule | null): Record<string, unknown> {
  return {
    type: 'alert.fired',
    version: 1,
    source: 'folioscope',
    alert: {
      id: alert.id,
      kind: alert.kind,
      subject: alert.subject,
      wallet: alert.wallet,
      title: alert.title,
      detail: alert.detail,
      facts: alert.facts,
      firedAt: alert.firedAt,
    },
    rule: rule ? { id: rule.id, scope: rule.scope, condition: rule.condition } : null,
  };
}

export async function postWebhook(url: string, body: string, o: { timeoutMs?: number; fetch?: typeof fetch } = {}): Promise<NonNullable<Alert['delivery']>> {
  const at = () => new Date().toISOString();
  try {
    const res = await (o.fetch ?? fetch)(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'User-Agent': 'Folioscope' },
      body,
      redirect: 'manual',
      credentials: 'omit',
      signal: AbortSignal.timeout(o.timeoutMs ?? WEBHOOK_TIMEOUT_MS),
    });
    // The answer's body is not needed: it is dropped without being read.
    await res.body?.cancel().catch(() => undefined);
    if (res.status >= 200 && res.status < 300) return { state: 'sent', at: at(), status: res.status, error: null };
    const why = res.status >= 300 && res.status < 400 ? 'a redirect, not followed' : 'not a success';
    return { state: 'failed', at: at(), status: res.status, error: `The webhook answered HTTP ${res.status} (${why}).` };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    const message =
      e.name === 'TimeoutError' || e.name === 'AbortError'
        ? `No answer within ${Math.round((o.timeoutMs ?? WEBHOOK_TIMEOUT_MS) / 1000)} s.`
        : `Could not reach the webhook: ${e.cause?.code ?? e.cause?.message ?? e.message}.`;
    return { state: 'failed', at: at(), status: null, error: message };
  }
}
