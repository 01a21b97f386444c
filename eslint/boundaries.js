// The architecture's walls, as one lint rule: which part of the source tree may import which.
// An import is resolved against the importing file's folder, so the rule sees where it lands,
// not how the path is spelled. Layers and their rules are described in docs/design-notes.md.
import { builtinModules } from 'node:module';
import { dirname, relative, resolve, sep } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

/** The layer a file of the source tree belongs to, or null outside src/. */
export function layerOf(file) {
  const rel = relative(ROOT, file).split(sep).join('/');
  if (rel === 'src/main/index.ts' || rel.startsWith('src/main/electron/')) return 'electron-shell';
  if (rel === 'src/main/folioscope.ts') return 'launcher';
  if (rel.startsWith('src/main/web/')) return 'web-shell';
  if (rel.startsWith('src/main/cli/')) return 'cli-shell';
  if (rel.startsWith('src/main/core/')) return 'core';
  if (rel.startsWith('src/main/shell-policy/')) return 'shell-policy';
  if (rel.startsWith('src/preload/')) return 'preload';
  if (rel.startsWith('src/renderer/')) return 'renderer';
  if (rel.startsWith('src/shared/')) return 'shared';
  if (rel.startsWith('src/sim/')) return 'sim';
  if (rel.startsWith('src/')) return 'other';
  return null;
}

const SHELLS = ['electron-shell', 'web-shell', 'cli-shell', 'preload'];

/**
 * What each layer must not import: other layers, `electron`, Node's built-ins.
 * Anything not listed is allowed (npm packages, its own layer, the layers below it).
 */
const FORBIDDEN = {
  core: { layers: [...SHELLS, 'renderer'], electron: true },
  // The `folioscope` program: puts the CLI and the web shell's `serve` together.
  launcher: { layers: ['electron-shell', 'preload', 'renderer'], electron: true },
  'shell-policy': { layers: [...SHELLS, 'renderer', 'core'], electron: true },
  'electron-shell': { layers: ['web-shell', 'cli-shell', 'renderer'] },
  'web-shell': { layers: ['electron-shell', 'cli-shell', 'preload', 'renderer'], electron: true },
  'cli-shell': { layers: ['electron-shell', 'web-shell', 'preload', 'renderer'], electron: true },
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
    const to = layerOf(resolve(dirname(context.filename), spec));
    if (to && to !== from && rules.layers.includes(to)) {
      context.report({ node, messageId: 'layer', data: { from, to, spec } });
    }
    return;
  }
  if (rules.electron && (spec === 'electron' || spec.startsWith('electron/'))) {
    context.report({ node, messageId: 'electron', data: { from, spec } });
  }
  if (rules.builtins && BUILTINS.has(spec)) {
    context.report({ node, messageId: 'builtin', data: { from, spec } });
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
