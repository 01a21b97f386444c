/** The operations of backups: list, make one now, verify one, restore one (the current cache kept aside). */
import { rmSync } from 'node:fs';
import type { Handlers } from '../handlers.ts';
import type { Session } from '../session/index.ts';
import { stageRestoreOffThread, verifyBackupOffThread } from '../store/backup-thread.ts';
import { backupsFolderOf, listBackups } from '../store/backup-files.ts';
import { swapInRestore, undoRestore } from './swap.ts';
import { assertAlone } from '../store/cache-conversion.ts';
import { refusal } from '../store/validation.ts';
import type { Backups } from './backups.ts';

type BackupOperations = 'backups.list' | 'backups.create' | 'backups.verify' | 'backups.restore';

export function backupHandlers(session: Session, backups: Backups): Pick<Handlers, BackupOperations> {
  return {
    'backups.list': () => ({
      folder: backupsFolderOf(session.profile.databaseFile),
      backups: listBackups(session.profile.databaseFile),
      problem: backups.problem,
    }),
    'backups.create': () => backups.make('manual'),
    'backups.verify': async ({ name }) => {
      const p = session.profile;
      try {
        return { name, ok: true, problem: null, backup: await verifyBackupOffThread(p.db, p.databaseFile, name, session.cacheKey) };
      } catch (err) {
        if ((err as Error).name !== 'BackupRefusedError') throw err;
        return { name, ok: false, problem: (err as Error).message, backup: null };
      }
    },
    'backups.restore': async ({ name, cancelJobs }) => {
      const file = session.profile.databaseFile;
      // Set by `prepare` (a property, which the type check follows into the callbacks).
      const stage: { made?: Awaited<ReturnType<typeof stageRestoreOffThread>> } = {};
      try {
        const keptAside = await session.withCacheClosed(
          {
            what: 'The restore',
            cancelJobs: cancelJobs ?? false,
            then: 'restore',
            busy: refusal('name', 'backup.busy', {}),
            keep: true,
            // Verified and copied beside the cache while it is still open: a backup that fails changes nothing.
            prepare: async () => {
              const p = session.profile;
              stage.made = await stageRestoreOffThread(p.db, p.databaseFile, name, session.cacheKey);
            },
            undo: (aside: string) => undoRestore(file, aside),
            undone: (err) => `The restored cache did not open (${err.message}); the cache was put back as it was.`,
          },
          async () => {
            // Another process with the cache open (the app, the web shell, `watch`) would go on
            // writing into the file put aside: refused, nothing changed.
            assertAlone(file, session.cacheKey);
            try {
              return swapInRestore(file, stage.made!.staged);
            } catch (err) {
              throw new Error(`The backup could not be put in place (${(err as Error).message}); the cache is as it was.`, { cause: err });
            }
          },
        );
        return { restored: stage.made!.backup, keptAside };
      } finally {
        if (stage.made) rmSync(stage.made.staged, { force: true });
      }
    },
  };
}
