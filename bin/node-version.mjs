// The Node the `folioscope` command needs: the native SQLite driver is built for Node 24's ABI,
// and loading it under another Node crashes the process (a segmentation fault, no message), so
// the command says what to do before it loads anything of the app.

/** Why `version` (process.versions.node) cannot run Folioscope, or null when it can. */
export function nodeProblem(version) {
  const major = Number(String(version).split('.')[0]);
  if (major === 24) return null;
  return (
    `Folioscope needs Node 24; this is Node ${version}. Install Node 24 (nvm install 24, or from ` +
    `nodejs.org) and run it with that, or from a checkout: export PATH="$(scripts/provision-node.sh):$PATH".`
  );
}
