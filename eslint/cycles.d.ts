/** The cycles of a graph (node → the nodes it points to): each a sorted list of nodes; a node pointing to itself is one. */
export function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][];
/** The import cycles among the source files under `dir`, each as paths relative to it. */
export function importCycles(dir: string): string[][];
