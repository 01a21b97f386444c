import type { AppInfo, InputOf, Settings, WalletStatus } from '../../../shared/contract.ts';
import type { JobInfo, Wallet } from '../../../shared/model.ts';
import { API_BASE, call, errorMessage, FolioError, on } from './api.ts';
import { setLocale, setTimeZone } from './format.ts';
import { route } from './route.svelte.ts';
import { applyTheme } from './theme.ts';
import { setLanguage, words } from './words.ts';
import { errorText, jobLabel } from './core-text.ts';
import { dataChanges } from './data-changes.ts';

export interface Notice {
  message: string;
  kind: 'error' | 'info';
  retry?: () => void;
}

/**
 * App-wide state: what the app is connected to, the watched wallets and their freshness,
 * running jobs, and whether the service is reachable. Views read it; actions here change it.
 */
class AppState {
  #info = $state<AppInfo | null>(null);
  #settings = $state<Settings | null>(null);
  #wallets = $state<Wallet[]>([]);
  #statuses = $state<WalletStatus[]>([]);
  #jobs = $state<JobInfo[]>([]);
  #offline = $state(false);
  #notice = $state<Notice | null>(null);
  #loaded = $state(false);

  /** What the app is connected to (null until loaded). */
  get info(): AppInfo | null {
    return this.#info;
  }
  get settings(): Settings | null {
    return this.#settings;
  }
  /** The watched wallets, in the core's order. */
  get wallets(): readonly Wallet[] {
    return this.#wallets;
  }
  get statuses(): readonly WalletStatus[] {
    return this.#statuses;
  }
  get jobs(): readonly JobInfo[] {
    return this.#jobs;
  }
  /** Set when the last work that needed the service could not reach it. */
  get offline(): boolean {
    return this.#offline;
  }
  /** A message for the whole app (top of the screen), with an optional retry. */
  get notice(): Notice | null {
    return this.#notice;
  }
  /** Whether the first load has finished (well or not). */
  get loaded(): boolean {
    return this.#loaded;
  }

  /** Takes what the core said about the connection, settings and wallets (load and refreshWallets pass what they read). */
  apply(read: { info?: AppInfo; settings?: Settings; wallets?: Wallet[]; statuses?: WalletStatus[] }): void {
    if (read.info) this.#info = read.info;
    if (read.settings) this.#settings = read.settings;
    if (read.wallets) this.#wallets = read.wallets;
    if (read.statuses) this.#statuses = read.statuses;
  }

  /**
   * Changes settings on the version this screen read (`settings.version`): a setting someone else
   * changed since is refused, naming them, rather than overwritten. The answer is the settings as
   * they are now, everyone's changes included, and becomes what the screens read.
   */
  async updateSettings(changes: Omit<InputOf<'settings.update'>, 'expectedVersion'>): Promise<Settings> {
    const version = this.#settings?.version;
    const s = await call('settings.update', { ...changes, ...(version !== undefined && { expectedVersion: version }) });
    this.#useSettings({ ...s, ...(this.#settings?.notices && { notices: this.#settings.notices }) });
    return s;
  }

  /** Sets the team server's person's own theme, language or time zone (null: the team's again); the answer is what the screens read. */
  async updateDisplay(changes: InputOf<'settings.display'>): Promise<Settings> {
    const s = await call('settings.display', changes);
    this.#useSettings(s);
    return s;
  }

  /**
   * The settings as the screens read them, and what follows from them, in one step: a screen
   * keyed by the locale (the settings dialog) is drawn again once, in the new words.
   */
  #useSettings(settings: Settings): void {
    setLocale(settings.locale);
    // The words follow the same setting as the numbers, so a screen is in one language; the
    // page's lang says which, for screen readers and hyphenation.
    document.documentElement.lang = setLanguage(settings.locale);
    setTimeZone(settings.timeZone ?? 'utc');
    applyTheme(settings.theme);
    this.#settings = settings;
  }

  /** Hides the app-wide notice (its ✕, or before its retry runs). */
  dismissNotice(): void {
    this.#notice = null;
  }

  get activeJobs(): JobInfo[] {
    return this.jobs.filter((j) => j.state === 'queued' || j.state === 'running');
  }

  /** Running or queued sync jobs of one wallet (exports are not syncs). */
  walletJobs(address: string): JobInfo[] {
    return this.activeJobs.filter((j) => j.wallet === address && j.kind !== 'export');
  }

  /** Why an action that needs the service cannot run now, or null when it can. */
  get networkBlocked(): string | null {
    return this.offline ? words.offlineReason : null;
  }

  #started: Promise<void> | null = null;
  /**
   * The first load, with the core's events listened to from before it: asked once. main.ts asks
   * it before the app is drawn, so its questions are in flight while the first render runs (at a
   * fund's scale a quarter of a second), and App asks it again on mount.
   */
  startUp(): Promise<void> {
    if (!this.#started) {
      this.#listen();
      this.#started = this.load();
    }
    return this.#started;
  }

  async load(): Promise<void> {
    try {
      const [info, settings] = await Promise.all([call('app.info', {}), call('settings.get', {})]);
      const before = this.#info?.databaseFile;
      this.apply({ info });
      this.#useSettings(settings);
      // Another cache (a service connected, or the demo again; a restore keeps the file): the
      // date, wallet, group and period shown were the other cache's; start from this one's newest
      // instead of showing "—" and "That wallet group no longer exists" (issue 39).
      if (before !== undefined && before !== info.databaseFile) {
        route.go({ date: null, wallet: null, group: null, from: null, to: null, compare: null, since: null }, { replace: true });
      }
      // Side by side: the first screen waits for both.
      const [, jobs] = await Promise.all([this.refreshWallets(), call('sync.jobs', {})]);
      this.#jobs = jobs;
    } catch (err) {
      this.fail(err);
    } finally {
      this.#loaded = true;
    }
  }

  #walletsRead: Promise<void> | null = null;
  #walletsAgain: Promise<void> | null = null;
  /**
   * Reads the wallets and their statuses again: one read at a time, and every ask made while one
   * runs shares the one read after it (which sees what they were asked for). A fund's sync
   * announces a change every few milliseconds, and each read is every wallet's status.
   */
  refreshWallets(): Promise<void> {
    if (!this.#walletsRead) {
      this.#walletsRead = this.#readWallets().finally(() => (this.#walletsRead = null));
      return this.#walletsRead;
    }
    this.#walletsAgain ??= this.#walletsRead
      .catch(() => undefined)
      .then(() => {
        this.#walletsAgain = null;
        return this.refreshWallets();
      });
    return this.#walletsAgain;
  }

  async #readWallets(): Promise<void> {
    const [wallets, statuses] = await Promise.all([call('wallets.list', {}), call('wallets.status', {})]);
    this.apply({ wallets, statuses });
  }

  status(address: string): WalletStatus | undefined {
    return this.statuses.find((s) => s.address === address);
  }

  wallet(address: string | null): Wallet | undefined {
    return address ? this.wallets.find((w) => w.address === address) : undefined;
  }

  /** Subscribes to the core's events, for the page's life (startUp). */
  #listen(): void {
    on('sync.progress', (info) => {
      const i = this.#jobs.findIndex((j) => j.id === info.id);
      if (i >= 0) this.#jobs[i] = info;
      else this.#jobs = [...this.#jobs, info];
      if (info.state === 'failed' && info.error) {
        if (info.error.kind === 'network') this.#offline = true;
        const wallet = info.wallet;
        this.#notice = {
          kind: 'error',
          message: `${jobLabel(info)}: ${errorText(info.error)}`,
          ...(wallet && info.error.retryable && info.kind !== 'export' && { retry: () => void this.retry(wallet) }),
        };
      }
      if (info.state === 'done' && info.kind !== 'export') this.#offline = false;
      if (info.state === 'done' && info.output) this.#delivered(info.output, info.completeness);
    });
    on('data.changed', (change) => {
      // Views whose data the change touches load again (lib/loader.svelte.ts); the wallet list and the connection are the store's.
      dataChanges.announce(change);
      if (change.scope === 'wallets' || change.scope === 'positions' || change.scope === 'transactions') void this.refreshWallets();
      // Another service (or demo): what was said of the last one (offline, its failed jobs and
      // their error) is not true of this one, and stays no longer.
      if (change.scope === 'mode') this.#forgetConnection();
      if (change.scope === 'mode' || change.scope === 'settings') void this.load();
    });
  }

  /** A finished export: downloaded by the browser (web shell), or saved where the user chose. */
  #delivered(output: NonNullable<JobInfo['output']>, completeness?: JobInfo['completeness']): void {
    // An export of transactions not proved complete says so beside where it went.
    const note =
      completeness && completeness.state !== 'complete'
        ? words.notices.exportIncomplete(completeness.reasons[0] ?? words.notices.notProved, completeness.action ?? '').trimEnd()
        : '';
    if (output.downloadId) {
      const a = document.createElement('a');
      a.href = `${API_BASE}download/${encodeURIComponent(output.downloadId)}`;
      a.download = output.fileName;
      document.body.append(a);
      a.click();
      a.remove();
      this.#notice = { kind: 'info', message: words.notices.downloaded(output.fileName, note) };
    } else if (output.path) {
      this.#notice = { kind: 'info', message: words.notices.saved(output.path, note) };
    }
  }

  #forgetConnection(): void {
    this.#offline = false;
    this.#jobs = this.#jobs.filter((j) => j.state === 'queued' || j.state === 'running');
    if (this.#notice?.kind === 'error') this.#notice = null;
  }

  fail(err: unknown, retry?: () => void): void {
    const message = errorMessage(err);
    if (err instanceof FolioError && err.kind === 'network') this.#offline = true;
    this.#notice = { kind: 'error', message, ...(retry && { retry }) };
  }

  /** Syncs a wallet again (after a failure). */
  retry(wallet: string): Promise<JobInfo[]> {
    return this.start(() => call('sync.all', { wallet }));
  }

  /** Starts jobs and tracks them; errors starting them become the notice. */
  async start(run: () => Promise<JobInfo | JobInfo[]>): Promise<JobInfo[]> {
    try {
      const started = await run();
      const list = Array.isArray(started) ? started : [started];
      for (const j of list) if (!this.#jobs.some((x) => x.id === j.id)) this.#jobs = [...this.#jobs, j];
      return list;
    } catch (err) {
      this.fail(err);
      return [];
    }
  }
}

export const appState = new AppState();

/** Today's date, UTC, as the service's dates are. */
export function today(): string {
  return new Date().toISOString().slice(0, 10);
}
