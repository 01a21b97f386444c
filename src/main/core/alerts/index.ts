/**
 * The alerts capability's public face: what the rest of the core may use of it (the lint's walls,
 * eslint/boundaries.js, refuse an import of its other files from outside it).
 */
export { CLOCK_KINDS, checkAlerts } from './check.ts';
export { ADDRESS_POISONING } from './poisoning.ts';
export { describeCondition } from './describe.ts';
export { postWebhook, webhookPayload } from './webhook.ts';
export { alertHandlers } from './handlers.ts';
export { fireCoreAlert, insertAlertRule, listAlertRules, recordDelivery, resolveCoreAlert } from './store/alerts.ts';
