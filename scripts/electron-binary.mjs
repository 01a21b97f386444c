// Finds the Electron binary the app runs on, fetching it on first use.
//
// `npm install` does not download Electron's binary (the `electron` package has no install
// script, and electron-vite only reads node_modules/electron/path.txt, which the package's own
// installer writes). So, in this order:
//   1. ELECTRON_EXEC_PATH: used as is, never downloaded.
//   2. The binary the `electron` package's installer put in node_modules/electron/dist.
//   3. Otherwise: download it once with @electron/get (the library the package's install.js
//      uses, with install.js's own version, platform, arch, checksums and cache settings, so
//      ELECTRON_MIRROR, ELECTRON_CUSTOM_DIR, ELECTRON_CUSTOM_FILENAME, electron_config_cache,
//      ELECTRON_GET_USE_PROXY and the npm_config_electron_* forms all apply), then run the
//      package's install.js, which finds the file in the cache and unpacks it. The only thing
//      added is a watchdog: a download that gets no data for STALL_MS is abandoned, so an
//      offline machine gets a short message within seconds instead of a hang.
import { execSync, spawn } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const STALL_MS = 20_000;

/** A failure the user can act on: printed as one line, never with a stack. */
export class ElectronUnavailableError extends Error {
  constructor(message) {
    super(message);
    this.name = 'ElectronUnavailableError';
  }
}

/** The executable inside Electron's zip, as install.js names it. */
function platformPath(platform) {
  if (platform === 'darwin' || platform === 'mas') return 'Electron.app/Contents/MacOS/Electron';
  if (platform === 'win32') return 'electron.exe';
  return 'electron';
}

function electronPackage(projectDir) {
  const require = createRequire(join(projectDir, 'package.json'));
  let pkgFile;
  try {
    pkgFile = require.resolve('electron/package.json');
  } catch {
    throw new ElectronUnavailableError('the electron package is not installed: run npm install (or npm ci) first.');
  }
  const dir = dirname(pkgFile);
  return { dir, version: JSON.parse(readFileSync(pkgFile, 'utf8')).version, require: createRequire(pkgFile) };
}

/** Where install.js puts the binary, if it is there for this version (its own isInstalled()). */
export function installedBinary(dir, version, env = process.env) {
  const exe = platformPath(env.ELECTRON_INSTALL_PLATFORM || env.npm_config_platform || process.platform);
  try {
    if (
      readFileSync(join(dir, 'dist', 'version'), 'utf8')
        .replace(/^v/, '')
        .trim() !== version
    )
      return null;
    if (readFileSync(join(dir, 'path.txt'), 'utf8') !== exe) return null;
  } catch {
    return null;
  }
  const binary = env.ELECTRON_OVERRIDE_DIST_PATH ? join(env.ELECTRON_OVERRIDE_DIST_PATH, exe) : join(dir, 'dist', exe);
  return existsSync(binary) ? binary : null;
}

/** install.js's choice of platform and arch (including its Rosetta check on macOS). */
function target(env) {
  const platform = env.ELECTRON_INSTALL_PLATFORM || env.npm_config_platform || process.platform;
  let arch = env.ELECTRON_INSTALL_ARCH || env.npm_config_arch || process.arch;
  if (platform === 'darwin' && process.platform === 'darwin' && arch === 'x64' && env.npm_config_arch === undefined) {
    try {
      if (execSync('sysctl -in sysctl.proc_translated').toString().trim() === '1') arch = 'arm64';
    } catch {
      // Not under Rosetta.
    }
  }
  return { platform, arch };
}

/** The first line of what went wrong, with the cause a fetch error hides. */
function reason(err) {
  const cause = err?.cause;
  const detail = cause ? String(cause.message || cause.code || '') : '';
  const text = err?.name === 'AbortError' || err?.name === 'TimeoutError' ? `no data for ${STALL_MS / 1000} s` : detail || String(err?.message ?? err);
  // Never echo credentials a mirror URL might carry.
  return text
    .split('\n')[0]
    .replace(/\/\/[^/@\s]+@/g, '//')
    .slice(0, 200);
}

function hostOf(url) {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

const ADVICE =
  'Connect to the internet and run it again, or see the README, Troubleshooting (proxy, mirror, ELECTRON_EXEC_PATH). Meanwhile `npm run serve` opens the same app in a browser, with no Electron.';

/**
 * Downloads Electron's zip into @electron/get's cache with install.js's parameters, under a
 * stall watchdog. `log` gets the one line saying a download starts.
 */
async function prefetch(pkg, env, log) {
  const get = await import(pkg.require.resolve('@electron/get'));
  const checksums = env.electron_use_remote_checksums || env.npm_config_electron_use_remote_checksums ? undefined : pkg.require('./checksums.json');
  const { platform, arch } = target(env);
  let host = '';
  const inner = new get.FetchDownloader();
  const downloader = {
    async download(url, file, options = {}) {
      host = hostOf(url);
      if (!url.endsWith('SHASUMS256.txt'))
        log(`Electron ${pkg.version} is not installed yet: downloading it once for ${platform}-${arch} from ${host} (about 100 MB)…`);
      const abort = new AbortController();
      let timer = setTimeout(() => abort.abort(), STALL_MS);
      try {
        await inner.download(url, file, {
          ...options,
          signal: abort.signal,
          quiet: !process.stderr.isTTY,
          getProgressCallback: () => {
            clearTimeout(timer);
            timer = setTimeout(() => abort.abort(), STALL_MS);
          },
        });
      } finally {
        clearTimeout(timer);
      }
    },
  };
  try {
    await get.downloadArtifact({
      version: pkg.version,
      artifactName: 'electron',
      force: env.force_no_cache === 'true',
      cacheRoot: env.electron_config_cache,
      checksums,
      platform,
      arch,
      downloader,
    });
  } catch (err) {
    throw new ElectronUnavailableError(`could not download Electron ${pkg.version}${host ? ` from ${host}` : ''} (${reason(err)}). ${ADVICE}`);
  }
}

/** Runs the electron package's own installer: with the zip cached, it only unpacks it. */
function runInstaller(pkg, env) {
  return new Promise((resolve, reject) => {
    // The zip is in the cache now; a forced re-download would bypass it.
    const childEnv = { ...env };
    delete childEnv.force_no_cache;
    const child = spawn(process.execPath, [join(pkg.dir, 'install.js')], { env: childEnv, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', (err) => reject(new ElectronUnavailableError(`could not unpack Electron ${pkg.version} (${reason(err)}).`)));
    child.on('close', (code) => {
      if (code === 0) return resolve();
      const first = stderr.split('\n').find((l) => l.trim()) ?? `exit code ${code}`;
      reject(
        new ElectronUnavailableError(
          `could not unpack Electron ${pkg.version} (${first.trim().slice(0, 200)}). Delete node_modules/electron/dist and try again.`,
        ),
      );
    });
  });
}

/**
 * The Electron executable to run: ELECTRON_EXEC_PATH, the installed one, or one fetched now.
 * Throws ElectronUnavailableError with a message meant for the user.
 */
export async function resolveElectron({ projectDir, env = process.env, log = (line) => console.error(line), download = true }) {
  const given = env.ELECTRON_EXEC_PATH;
  if (given) {
    let ok;
    try {
      ok = statSync(given).isFile();
    } catch {
      ok = false;
    }
    if (!ok) throw new ElectronUnavailableError(`ELECTRON_EXEC_PATH is ${given}, which is not a file: point it at an Electron executable or unset it.`);
    if (process.platform !== 'win32') {
      try {
        accessSync(given, constants.X_OK);
      } catch {
        throw new ElectronUnavailableError(`ELECTRON_EXEC_PATH is ${given}, which is not executable: chmod +x it, or point it at an Electron executable.`);
      }
    }
    return { path: given, source: 'ELECTRON_EXEC_PATH' };
  }
  const pkg = electronPackage(projectDir);
  const installed = installedBinary(pkg.dir, pkg.version, env);
  if (installed) return { path: installed, source: 'installed' };
  if (!download) throw new ElectronUnavailableError(`Electron ${pkg.version} is not installed (node_modules/electron/dist is empty).`);
  await prefetch(pkg, env, log);
  await runInstaller(pkg, env);
  const fetched = installedBinary(pkg.dir, pkg.version, env);
  if (!fetched)
    throw new ElectronUnavailableError(
      `Electron ${pkg.version} was downloaded but its executable is missing from node_modules/electron/dist. Delete that folder and try again.`,
    );
  return { path: fetched, source: 'downloaded' };
}

// As a command (`node scripts/electron-binary.mjs`): fetch Electron if needed and print its path,
// e.g. for CI to set up Linux's chrome-sandbox helper before the tests.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    const { path } = await resolveElectron({ projectDir: join(dirname(fileURLToPath(import.meta.url)), '..') });
    console.log(path);
  } catch (err) {
    console.error(err instanceof ElectronUnavailableError ? err.message : String(err?.message ?? err).split('\n')[0]);
    process.exit(1);
  }
}
