/**
 * The userdata capability's public face: what the rest of the core may use of it (the lint's walls,
 * eslint/boundaries.js, refuse an import of its other files from outside it).
 */
export { startUserDataExport } from './export-job.ts';
export { readUserDataFile } from './format.ts';
export { planImport } from './plan.ts';
export { userDataHandlers } from './handlers.ts';
