// The architecture's walls, as one lint rule: which part of the source tree may import which.
// An import is resolved against the importing file's folder, so the rule sees where it lands,
// not how the path is spelled. Layers and their rules are described in docs/design-notes.md.
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

/** The layer a file of the source tree belongs to, or null outside src/. */
export function layerOf(file) {
  const rel = relative(ROOT, file).split(sep).join('/');
  if (rel === 'src/main/index.ts' || rel.startsWith('src/main/electron/')) return 'electron-shell';
  if (rel === 'src/main/folioscope.ts') return 'launcher';
  if (rel.startsWith('src/main/web/')) return 'web-shell';
  if (rel.startsWith('src/main/team/')) return 'team-shell';
  if (rel.startsWith('src/main/cli/')) return 'cli-shell';
  if (rel.startsWith('src/main/team-client/')) return 'team-client';
  if (rel.startsWith('src/main/core/')) return 'core';
  if (rel.startsWith('src/main/shell-policy/')) return 'shell-policy';
  if (rel.startsWith('src/preload/')) return 'preload';
  if (rel.startsWith('src/renderer/')) return 'renderer';
  if (rel.startsWith('src/shared/')) return 'shared';
  if (rel.startsWith('src/sim/')) return 'sim';
  if (rel.startsWith('src/')) return 'other';
  return null;
}

const SHELLS = ['electron-shell', 'web-shell', 'team-shell', 'cli-shell', 'preload'];

const CORE = join(ROOT, 'src/main/core');

/**
 * The part of the core a file belongs to: its folder (`store`, `sync`, …; the migrations are a
 * part of their own, `store/migrations`) or, at the core's top, the file (`app.ts`, …). Null
 * outside src/main/core.
 */
export function corePartOf(file) {
  const rel = relative(CORE, file).split(sep).join('/');
  if (rel === '' || rel === '..' || rel.startsWith('../')) return null;
  if (rel.startsWith('store/migrations/')) return 'store/migrations';
  return rel.split('/')[0];
}

/**
 * The walls inside the core: which other parts of the core each part may import (its own files
 * always; src/shared and npm packages as the core's layer allows). Listed by hand from the
 * import graph, lowest first, so an edge against the order (or a cycle) fails the lint and a
 * new edge is a decision made here. `app.ts`, the composition root, may import any part; the
 * core never imports the simulator (the shells inject the demo service). Migrations import
 * nothing of the app: each copies the constants it needs, so it never changes with live code.
 * A part not listed here may import no other part until it is given a line.
 */
export const CORE_EDGES = {
  'store/migrations': [],
  // The connection, the migrations, the statement cache and the plain tables of the user's data.
  store: ['store/migrations'],
  // The service: its client, pacing, redaction, the conventions learned of it, the service check.
  service: ['handlers.ts', 'store'],
  // errors.ts serialises the service's and the store's errors, so util sits above both (and
  // the store, below it, cannot import it).
  util: ['service', 'store'],
  jobs: ['service', 'util'],
  secrets: ['service', 'store'],
  // What a capability's handlers are (core/handlers.ts): app.ts combines each part's.
  'handlers.ts': ['store'],
  // The address book (issue 28): entries, CSV import/export, names for addresses.
  counterparties: ['handlers.ts', 'store'],
  // The audit trail of the user's edits (written by the store functions that make them).
  audit: ['handlers.ts', 'store'],
  // Positions: their sync, the snapshots of the three views, positions at a date, between two, NAV.
  positions: ['handlers.ts', 'service', 'store'],
  // Transactions: their sync (ranges, the recent window, restatements), the writer and its key
  // index, event logs. The sync asks positions whether a wallet holds any before it takes an
  // empty history for the whole story.
  transactions: ['handlers.ts', 'positions', 'service', 'store'],
  // The read models of the cached history (the timeline, its export, the period's transactions,
  // outflows, transfers in a window, the rules' inputs): the transactions with their names and
  // notes. It reads the annotations' tables but imports nothing of annotations, which sits above
  // it: the rules run over the history, so annotations reads it here (not the reverse).
  ledger: ['counterparties', 'handlers.ts', 'store', 'transactions'],
  // Spam (issue 38): the judge of tokens and transactions, the lists and the user's verdicts. It
  // reads the positions' snapshots and, through the ledger, the history (known counterparties,
  // what the wallet bought), and the address book; the readers of figures sit above it.
  spam: ['counterparties', 'handlers.ts', 'ledger', 'positions', 'store'],
  // Notes, categories and the rules that set them (issue 28): their handlers, matching and application.
  annotations: ['handlers.ts', 'ledger', 'store'],
  // Reconciliation (positions against the transactions between), lending risk, exposure.
  analytics: ['counterparties', 'handlers.ts', 'ledger', 'positions', 'spam', 'store', 'transactions'],
  // The one view of a scope's portfolio at a date (totals, risk, what a member lacks): it
  // composes positions and analytics, so it sits above both; alerts, the pack and reports read it.
  portfolio: ['analytics', 'handlers.ts', 'positions', 'spam', 'store'],
  // The sync engine: the jobs that run each capability's sync, their progress and the wallets' freshness.
  sync: ['handlers.ts', 'jobs', 'positions', 'service', 'store', 'transactions'],
  // The watched wallets and their groups, and each wallet's freshness. Their CSV import reads
  // files as the address book's does (its CSV reader and chain names) and takes its "ours" entries.
  wallets: ['counterparties', 'handlers.ts', 'positions', 'service', 'store', 'sync', 'transactions'],
  alerts: ['handlers.ts', 'ledger', 'portfolio', 'positions', 'service', 'spam', 'store', 'sync'],
  // The monthly pack: the portfolio view at two dates, the reconciliation between, the flows valued.
  pack: ['analytics', 'counterparties', 'handlers.ts', 'ledger', 'portfolio', 'positions', 'spam', 'store'],
  // Closed periods: the pack frozen at close, the hash of the data behind it, checks and reopens.
  closes: ['alerts', 'analytics', 'handlers.ts', 'heap.ts', 'ledger', 'pack', 'positions', 'spam', 'store'],
  // Reports lay out the views: counterparties name from and to in the transactions CSV and the PDF.
  reports: [
    'analytics',
    'audit',
    'closes',
    'counterparties',
    'handlers.ts',
    'heap.ts',
    'jobs',
    'ledger',
    'pack',
    'people',
    'portfolio',
    'positions',
    'spam',
    'store',
    'transactions',
  ],
  // The session: the service the core talks to, the cache open for it and its key, and the
  // moves between them (connect, demo, restore, encrypt) during which requests wait.
  session: ['handlers.ts', 'people', 'positions', 'secrets', 'service', 'store', 'sync', 'util'],
  // Scheduled syncs in this process and their operations.
  schedule: ['handlers.ts', 'session', 'store', 'sync'],
  // Backups of the cache open now: made daily and on request, verified, restored.
  backups: ['handlers.ts', 'session', 'store'],
  userdata: ['alerts', 'annotations', 'closes', 'counterparties', 'handlers.ts', 'jobs', 'positions', 'reports', 'schedule', 'spam', 'store'],
  'paths.ts': [],
  // How far the heap grows before a collection while a large document is made (a flag of V8's).
  'heap.ts': [],
  // The people of a team server (docs/team.md): sign-in, sessions, API tokens, each one's display; their own tables.
  people: ['store'],
  // What a change of the data sets off (the rules, the alerts, the closes to check): one table.
  'reactions.ts': ['alerts', 'annotations', 'closes', 'counterparties', 'service', 'session', 'store', 'util'],
  // A team server's replica made on a worker thread, with what it leaves out (each capability's secrets).
  'replica.ts': ['audit', 'people', 'portfolio', 'store'],
  'replica-worker.ts': ['replica.ts', 'store'],
  // The self-check starts the sync's write worker, to prove a packaged app finds and loads it.
  'self-check.ts': ['secrets', 'session', 'store', 'transactions'],
  'app.ts': '*',
};

/**
 * All a shell may import from the core: its face, src/main/core/index.ts. The shells hold the
 * contract (`Core`) and the few names and helpers re-exported there, never the core's internals,
 * so the core can be cut and moved without a shell changing (issue 36).
 */
export const SHELL_FACE = join(CORE, 'index.ts');
/**
 * The parts the face re-exports from, each through its own face (listed so that what a shell
 * reaches of the core is a decision made here). The face sits above everything in the core, app.ts
 * included, and nothing in the core imports it: it is outside CORE_EDGES, whose order it would
 * turn into a cycle (app.ts may import any part).
 */
export const SHELL_FACE_PARTS = ['alerts', 'app.ts', 'closes', 'paths.ts', 'people', 'reports', 'schedule', 'secrets', 'self-check.ts', 'session', 'store'];
const FACE_HOLDERS = new Set(['electron-shell', 'web-shell', 'team-shell', 'cli-shell', 'launcher', 'team-client']);

/**
 * The parts whose files may be imported one by one (where CORE_EDGES allows the edge): the store
 * (connection, statements, plain tables), its migrations and util. Every other folder of the core is a capability whose
 * public face is its index.ts: the rest of the core imports that, never its other files, so a
 * capability's store and internals can change without anyone else changing.
 */
export const OPEN_PARTS = new Set(['store', 'store/migrations', 'util']);

/**
 * What each layer must not import: other layers, `electron`, Node's built-ins.
 * Anything not listed is allowed (npm packages, its own layer, the layers below it).
 */
const FORBIDDEN = {
  // The simulator too: the shells hand the core its demo service (src/sim/demo.ts).
  core: { layers: [...SHELLS, 'renderer', 'sim'], electron: true },
  // The `folioscope` program: puts the CLI and the web shell's `serve` together.
  launcher: { layers: ['electron-shell', 'preload', 'renderer'], electron: true },
  'shell-policy': { layers: [...SHELLS, 'renderer', 'core'], electron: true },
  'electron-shell': { layers: ['web-shell', 'team-shell', 'cli-shell', 'renderer'] },
  'web-shell': { layers: ['electron-shell', 'team-shell', 'cli-shell', 'preload', 'renderer'], electron: true },
  'cli-shell': { layers: ['electron-shell', 'web-shell', 'team-shell', 'preload', 'renderer'], electron: true },
  // The team server reuses the web shell's pieces (the downloads, the body reader): it is the
  // same kind of shell for many people, and the web shell never imports it back.
  'team-shell': { layers: ['electron-shell', 'cli-shell', 'preload', 'renderer'], electron: true },
  // A team server's client (the contract over HTTP, the desktop's sign-in and offline replica):
  // shell-neutral, so the CLI, the loopback web shell and the Electron shell all use it.
  'team-client': { layers: [...SHELLS, 'renderer', 'sim'], electron: true },
  preload: { layers: ['core', 'web-shell', 'cli-shell', 'electron-shell', 'renderer', 'sim', 'shell-policy'] },
  renderer: {
    layers: ['core', ...SHELLS, 'sim', 'shell-policy'],
    electron: true,
    builtins: true,
  },
  shared: {
    layers: ['core', ...SHELLS, 'renderer', 'sim', 'shell-policy'],
    electron: true,
    builtins: true,
  },
  sim: { layers: ['core', ...SHELLS, 'renderer', 'shell-policy'], electron: true },
};

function check(context, node, spec) {
  if (typeof spec !== 'string') return;
  const from = layerOf(context.filename);
  const rules = from && FORBIDDEN[from];
  if (!rules) return;
  if (spec.startsWith('.')) {
    const target = resolve(dirname(context.filename), spec);
    const to = layerOf(target);
    if (to && to !== from && rules.layers.includes(to)) {
      context.report({ node, messageId: 'layer', data: { from, to, spec } });
    } else if (to === 'core' && FACE_HOLDERS.has(from) && target !== SHELL_FACE) {
      context.report({ node, messageId: 'shellFace', data: { from, spec } });
    }
    if (from === 'core') checkCorePart(context, node, spec, target);
    return;
  }
  if (rules.electron && (spec === 'electron' || spec.startsWith('electron/'))) {
    context.report({ node, messageId: 'electron', data: { from, spec } });
  }
  if (rules.builtins && BUILTINS.has(spec)) {
    context.report({ node, messageId: 'builtin', data: { from, spec } });
  }
}

/** The walls between the core's parts (CORE_EDGES). */
function checkCorePart(context, node, spec, target) {
  const from = corePartOf(context.filename);
  const to = corePartOf(target);
  if (from === 'store/migrations' && to !== 'store/migrations') {
    context.report({ node, messageId: 'migration', data: { spec } });
    return;
  }
  if (!to || to === from) return;
  if (to === 'index.ts') return context.report({ node, messageId: 'ownFace', data: { spec } });
  const allowed = from === 'index.ts' ? SHELL_FACE_PARTS : CORE_EDGES[from];
  if (allowed !== '*') {
    if (!allowed) return context.report({ node, messageId: 'unknownPart', data: { from, to, spec } });
    if (!allowed.includes(to)) return context.report({ node, messageId: 'corePart', data: { from, to, spec, allowed: allowed.join(', ') || 'no other part' } });
  }
  // A capability (a folder that is not open to all) is entered through its face only.
  if (!OPEN_PARTS.has(to) && !to.endsWith('.ts') && target !== join(CORE, to, 'index.ts')) {
    context.report({ node, messageId: 'face', data: { to, spec } });
  }
}

const importBoundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'Keep the core, the shells, the renderer, shared code and the simulator apart' },
    schema: [],
    messages: {
      layer: "The {{from}} must not import the {{to}} ('{{spec}}'): see docs/design-notes.md, 'The walls'.",
      electron: "The {{from}} must not import '{{spec}}': only the Electron shell and the preload may.",
      builtin: "The {{from}} must not import the Node built-in '{{spec}}': it also runs in the renderer.",
      corePart:
        "Inside the core, {{from}} must not import {{to}} ('{{spec}}'): it may import {{allowed}} (CORE_EDGES in eslint/boundaries.js; docs/design-notes.md, 'The walls').",
      unknownPart: "{{from}} is not in the core's map of parts: give it a line in CORE_EDGES (eslint/boundaries.js) before it imports {{to}} ('{{spec}}').",
      face: "Another capability is entered through its public face: import '{{to}}/index.ts', not '{{spec}}' (export what is needed there; eslint/boundaries.js OPEN_PARTS).",
      ownFace: "The core's face (src/main/core/index.ts) is the shells': the core imports the part itself ('{{spec}}').",
      shellFace:
        "The {{from}} imports the core through its face only: import 'src/main/core/index.ts', not '{{spec}}' (re-export what a shell needs there, or ask it through the contract; eslint/boundaries.js SHELL_FACE).",
      migration: "A migration must not import live code ('{{spec}}'): copy the constants it needs, so it never changes when the app does.",
    },
  },
  create(context) {
    const source = (node) => check(context, node.source, node.source?.value);
    return {
      ImportDeclaration: source,
      ExportNamedDeclaration: source,
      ExportAllDeclaration: source,
      ImportExpression: (node) => check(context, node.source, node.source.value),
      TSImportType: (node) => check(context, node, node.argument?.literal?.value ?? node.source?.value),
    };
  },
};

export default { rules: { 'import-boundaries': importBoundaries } };
