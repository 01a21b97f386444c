/**
 * Backups of the cache open now (store/backup-files.ts): daily while the app or web shell runs, checked
 * with the schedules, made on a worker thread (a large cache takes seconds); a failure is kept for
 * Settings to show, and tried again at the next check. One backup at a time; a restore or a
 * conversion waits for it.
 */
import type { Session } from '../session/index.ts';
import { createBackupOffThread } from '../store/backup-thread.ts';
import { backupDue, pruneBackups } from './policy.ts';
import { getSettings } from '../store/settings.ts';
import { listWallets } from '../store/wallets.ts';
import type { Database } from '../store/driver.ts';
import type { ReplicaManifest } from '../store/replica-files.ts';
import { ownerOnlyFolder } from '../store/small-file.ts';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

export class Backups {
  private run: Promise<unknown> | null = null;
  /** Why the last scheduled backup failed (null: it did not). */
  problem: string | null = null;
  /** A backup being made is finished before the cache closes (it reads the cache). */
  readonly settles = 'finish' as const;

  constructor(
    private readonly session: Session,
    private readonly appVersion: string,
    /** The core's clock: a backup's name and time, and whether the daily one is due (tests pin it). */
    private readonly now: () => number = Date.now,
  ) {}

  /** Runs `work` after any backup under way. */
  oneAtATime<T>(work: () => Promise<T>): Promise<T> {
    const next = (this.run ?? Promise.resolve()).catch(() => undefined).then(work);
    const settled = next.finally(() => {
      if (this.run === settled) this.run = null;
    });
    this.run = settled;
    settled.catch(() => undefined);
    return next;
  }

  make(reason: 'scheduled' | 'manual') {
    return this.oneAtATime(async () => {
      const p = this.session.profile;
      const made = await createBackupOffThread(p.db, p.databaseFile, reason, this.appVersion, this.now());
      pruneBackups(p.databaseFile, getSettings(p.db).backupKeep);
      return made;
    });
  }

  /**
   * A team server's replica for a desktop (store/replica-files.ts): made by `make` (on a worker
   * thread: core/replica.ts) in the data folder's `replicas` folder (0700) under a new random name,
   * after any backup under way and before the next (one copy of the cache at a time). The caller
   * serves the file and removes it.
   */
  replica(
    make: (o: { db: Database; cacheFile: string; target: string; appVersion: string; now: number }) => Promise<ReplicaManifest>,
  ): Promise<{ file: string; manifest: ReplicaManifest }> {
    return this.oneAtATime(async () => {
      const dir = join(this.session.dataDir, 'replicas');
      ownerOnlyFolder(dir);
      const file = join(dir, `replica-${randomBytes(8).toString('hex')}.sqlite`);
      const p = this.session.profile;
      // The file is removed by the maker itself when it fails.
      return { file, manifest: await make({ db: p.db, cacheFile: p.databaseFile, target: file, appVersion: this.appVersion, now: this.now() }) };
    });
  }

  /** Makes the daily backup if it is due (not on a read-only cache, nor while the cache is being swapped). */
  ifDue(): void {
    const p = this.session.profile;
    if (p.readOnly || this.session.converting || this.run) return;
    const settings = getSettings(p.db);
    // A cache with no wallet holds nothing of the user's yet.
    if (!settings.backupEnabled || !listWallets(p.db).length || !backupDue(p.databaseFile, new Date(this.now()))) return;
    this.make('scheduled').then(
      () => (this.problem = null),
      (err: unknown) => (this.problem = (err as Error).message),
    );
  }

  /** A backup is never refused: it is waited for. */
  running(): string | null {
    return null;
  }

  async settle(): Promise<void> {
    await this.run?.catch(() => undefined);
  }
}
