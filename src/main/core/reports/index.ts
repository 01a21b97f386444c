/**
 * The reports capability's public face: what the rest of the core may use of it (the lint's walls,
 * eslint/boundaries.js, refuse an import of its other files from outside it).
 */
export { downloadPath, startExport } from './export-job.ts';
export type { ExportTarget, SaveFormat } from './export-job.ts';
export { writeAtomically } from './files.ts';
export { reportHandlers } from './handlers.ts';
