/**
 * What the signed-in person may do on a team server (src/shared/roles.ts), for the screens to
 * offer only that: a button a role may not use is not shown (an approver is not offered "Prepare
 * close", a viewer no edit), rather than offered and refused. The server's gate still decides
 * every request; this is the screens' courtesy, read once from the session (`api/session`). In
 * the app and the loopback web shell there is no session: the one user may do everything.
 */
import { isRole, roleAllows, type Permission, type Role } from '../../../shared/roles.ts';
import { call, on, teamSession } from './api.ts';

export const access = $state<{ person: string | null; role: Role | null }>({ person: null, role: null });

let asked = false;
/**
 * Reads the session once (the app's start asks it; a screen may too). With none, this is the app
 * or `folioscope serve`: signed in to a team server (Settings → Team), the person's role there
 * while it is live, and only reading while its copy is shown; read again whenever the books in
 * use change (`data.changed` 'mode').
 */
export function loadAccess(): void {
  if (asked) return;
  asked = true;
  void teamSession().then((s) => {
    if (s && isRole(s.role)) {
      access.person = s.person;
      access.role = s.role;
      return;
    }
    void fromTeamClient();
    on('data.changed', (c) => {
      if (c.scope === 'mode') void fromTeamClient();
    });
  });
}

async function fromTeamClient(): Promise<void> {
  const t = await call('team.status', {}).catch(() => null);
  const signedIn = t?.available && t.state !== 'signedOut';
  access.person = signedIn ? t.person : null;
  // The copy reads only: its screens offer nothing that would be refused.
  access.role = !signedIn ? null : t.state === 'live' && isRole(t.role) ? t.role : 'viewer';
}

/** Whether this is a close the signed-in person prepared on a team server (`team`): another person approves it, so its Approve is not offered. */
export function preparedByMe(c: { preparedBy: string | null }, team: boolean): boolean {
  return team && access.person !== null && c.preparedBy === access.person;
}

/** Whether the person may do what needs `need` (always, without a team server's session). */
export function can(need: Permission): boolean {
  return access.role === null || roleAllows(access.role, need);
}
