#!/usr/bin/env node
// Runs Electronegativity over the Electron layer (src/main, src/preload), offline, and
// fails on any finding not justified in security/electronegativity-exclusions.json.
// Electronegativity's own CLI first fetches translations over the network, and without a
// network it crashes (a `got` retry error under Node 24); so this drives its runner
// directly, with the English texts it ships. AvailableSecurityFixesGlobalCheck needs the
// network (it compares with Electron's release list) and is excluded, as DESIGN.md says.
const path = require('node:path');
const fs = require('node:fs');

const root = path.join(__dirname, '..');
const pkgDir = path.dirname(require.resolve('@doyensec/electronegativity/package.json'));
const i18n = require(require.resolve('i18n', { paths: [pkgDir] }));
i18n.configure({
  locales: ['en-US'],
  defaultLocale: 'en-US',
  directory: path.join(pkgDir, 'dist/locales'),
  updateFiles: false,
  objectNotation: true,
  register: global,
});
i18n.setLocale('en-US');
// Its i18n module downloads translations; put an offline one in the module cache instead.
const i18nModule = require.resolve(path.join(pkgDir, 'dist/locales/i18n.js'));
require.cache[i18nModule] = { id: i18nModule, filename: i18nModule, loaded: true, exports: { __esModule: true, default: async () => undefined } };
const runner = require(path.join(pkgDir, 'dist/runner.js'));
const run = runner.default ?? runner;

const electronVersion = require(path.join(root, 'node_modules/electron/package.json')).version;
const exclusions = JSON.parse(fs.readFileSync(path.join(root, 'security/electronegativity-exclusions.json'), 'utf8'));

async function scan(dir) {
  const result = await run(
    {
      input: dir,
      output: undefined,
      isSarif: false,
      customScan: [],
      excludeFromScan: ['availablesecurityfixesglobalcheck'],
      severitySet: undefined,
      confidenceSet: undefined,
      isRelative: true,
      isVerbose: false,
      electronUpgrade: undefined,
      electronVersionOverride: electronVersion,
      parserPlugins: [],
    },
    false,
  );
  if (result.errors && result.errors.length) throw new Error(`could not parse: ${result.errors.map((e) => e.file).join(', ')}`);
  return result.issues.map((i) => ({
    check: i.id,
    severity: i.severity.name,
    confidence: i.confidence.name,
    file: i.file,
    location: `${i.location.line}:${i.location.column}`,
  }));
}

(async () => {
  // One scan over both folders, so the global checks (CSP, navigation, permissions) see
  // the whole Electron layer at once.
  const layer = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'folioscope-electron-'));
  fs.cpSync(path.join(root, 'src/main'), path.join(layer, 'src/main'), { recursive: true });
  fs.cpSync(path.join(root, 'src/preload'), path.join(layer, 'src/preload'), { recursive: true });
  const findings = await scan(layer);
  fs.rmSync(layer, { recursive: true, force: true });
  const justified = (f) => exclusions.some((e) => e.check === f.check && (e.file === '*' || e.file === f.file));
  const open = findings.filter((f) => !justified(f));
  for (const f of findings) console.log(`${justified(f) ? 'justified' : 'FINDING  '}  ${f.check}  ${f.severity}/${f.confidence}  ${f.file}:${f.location}`);
  if (open.length) {
    console.error(`\nElectronegativity: ${open.length} finding(s) not justified in security/electronegativity-exclusions.json.`);
    process.exit(1);
  }
  console.log(`\nElectronegativity (Electron ${electronVersion}): ${findings.length} finding(s), all justified.`);
  process.exit(0);
})().catch((err) => {
  console.error(`Electronegativity failed to run: ${err.stack || err}`);
  process.exit(2);
});
