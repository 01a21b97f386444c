/** Why `version` (process.versions.node) cannot run Folioscope, or null when it can. */
export function nodeProblem(version: string): string | null;
