/**
 * The names of the contract's operations and events, free of any library so the sandboxed
 * preload can bind exactly these. contract.ts gives each its schema and result type, and
 * the type check there fails if the two lists drift apart.
 */
export const OPERATION_NAMES = [
  'app.info',
  'app.connect',
  'app.useDemo',
  'settings.get',
  'settings.update',
  'key.status',
  'key.set',
  'key.clear',
  'wallets.list',
  'wallets.add',
  'wallets.update',
  'wallets.remove',
  'wallets.status',
  'positions.dates',
  'positions.get',
  'positions.diff',
  'portfolio.view',
  'nav.history',
  'exposure.get',
  'timeline.page',
  'timeline.facets',
  'timeline.count',
  'changes.list',
  'audit.list',
  'pack.get',
  'closes.list',
  'closes.get',
  'closes.close',
  'closes.reopen',
  'closes.check',
  'logs.get',
  'sync.positions',
  'sync.backfill',
  'sync.transactions',
  'sync.all',
  'sync.cancel',
  'sync.jobs',
  'shell.openExternal',
  'cache.clear',
  'cache.encryption',
  'cache.encrypt',
  'cache.decrypt',
  'export.start',
  'reconcile.get',
  'reconcile.trace',
  'risk.lending',
  'risk.health',
  'risk.unlocks',
  'groups.list',
  'groups.save',
  'groups.remove',
  'schedules.list',
  'schedules.save',
  'schedules.remove',
  'schedules.runDue',
  'backups.list',
  'backups.create',
  'backups.verify',
  'backups.restore',
  'userData.export',
  'userData.preview',
  'userData.import',
  'alerts.rules',
  'alerts.saveRule',
  'alerts.removeRule',
  'alerts.inbox',
  'alerts.acknowledge',
  'alerts.snooze',
  'alerts.check',
  'service.conventions',
  'service.check',
  'service.doctor',
] as const;

export type OperationName = (typeof OPERATION_NAMES)[number];

export const EVENT_NAMES = ['sync.progress', 'data.changed', 'alert.fired'] as const;
export type EventName = (typeof EVENT_NAMES)[number];

/** The IPC channels of the Electron shell. */
export const IPC_INVOKE = 'folio:invoke';
export const IPC_EVENT = 'folio:event';
/** The renderer no longer needs the answer to its request of this id (a view left, a newer request made). */
export const IPC_CANCEL = 'folio:cancel';
