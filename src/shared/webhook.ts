/**
 * A webhook URL is a secret: a Slack or Teams incoming webhook posts to the channel for whoever
 * holds the whole URL. Who may not set it sees only where it goes (its origin), and no audit
 * entry, export or replica given to them holds the rest (docs/team.md, "What each role sees").
 */

/** Where a webhook posts, without the part that lets anyone post: `https://hooks.slack.com/…`. */
export function webhookShown(url: string | null): string | null {
  if (url === null) return null;
  try {
    return `${new URL(url).origin}/…`;
  } catch {
    return '…';
  }
}

/** The edits whose values are such secrets: an entity and its item (a setting's key). */
export const isSecretEdit = (entity: string, item: string): boolean => entity === 'setting' && item === 'alertWebhookUrl';

/** An edited value as the trail keeps it: `{ alertWebhookUrl: url }` with the URL shown as above. */
export function editShown(entity: string, item: string, value: unknown): unknown {
  if (!isSecretEdit(entity, item) || value === null || typeof value !== 'object') return value;
  const url = (value as Record<string, unknown>)[item];
  return { ...value, [item]: typeof url === 'string' ? webhookShown(url) : url };
}
