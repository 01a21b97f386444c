// Import cycles, found by Tarjan's strongly connected components: the lint rule sees one import
// at a time, so a cycle (a imports b, b imports a, by however long a path) needs the whole graph.
// Used by test/lint/core-cycles.test.ts on src/main/core. Every import counts, type-only ones
// too: a cycle of types is still two modules that cannot be understood one without the other.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** The cycles of a graph (node → the nodes it points to): each a sorted list of nodes, in order of their first; a node pointing to itself is one. */
export function cyclesOf(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const cycles = [];
  let next = 0;
  // Iterative, so a long chain of imports cannot overflow the call stack.
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work = [[root, 0]];
    while (work.length) {
      const frame = work[work.length - 1];
      const [v, i] = frame;
      if (i === 0) {
        index.set(v, next);
        low.set(v, next);
        next++;
        stack.push(v);
        onStack.add(v);
      }
      const edges = (graph.get(v) ?? []).filter((w) => graph.has(w));
      if (i < edges.length) {
        frame[1]++;
        const w = edges[i];
        if (!index.has(w)) work.push([w, 0]);
        else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(v)));
      }
      if (low.get(v) === index.get(v)) {
        const component = [];
        let w;
        do {
          w = stack.pop();
          onStack.delete(w);
          component.push(w);
        } while (w !== v);
        if (component.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(component.sort());
      }
    }
  }
  return cycles.sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

function sourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|js|mjs)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * The import cycles among the source files under `dir` (relative imports that land in it:
 * static, re-exports, `import type`, dynamic `import()`), each as paths relative to `dir`.
 */
export function importCycles(dir) {
  const root = resolve(dir);
  const files = sourceFiles(root);
  const known = new Set(files);
  const name = (file) => relative(root, file).split(sep).join('/');
  // As the bundler resolves a path: as written, else with an extension or as a folder's index.
  const land = (target) => [target, `${target}.ts`, `${target}.js`, join(target, 'index.ts')].find((t) => known.has(t)) ?? target;
  const graph = new Map();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles.map((i) => i.fileName).filter((spec) => spec.startsWith('.'));
    graph.set(
      name(file),
      targets.map((spec) => name(land(resolve(dirname(file), spec)))),
    );
  }
  return cyclesOf(graph);
}
