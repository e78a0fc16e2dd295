// GSD-2 database projects: state read from `.gsd/gsd.db`, behind the core's state-source seam
// (project/gsd2-database-source.ts, which imports the reader itself). Only what the tests use.
export { readGsd2Database } from './read-gsd2-database';
export type { Gsd2DatabaseRead } from './read-gsd2-database';
