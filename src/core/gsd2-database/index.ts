// GSD-2 database projects: state read from `.gsd/gsd.db`, to sit behind the core's state-source seam.
export { readGsd2Database, gsd2DatabasePath, GSD2_DATABASE_FILE } from './read-gsd2-database';
export type { Gsd2DatabaseRead, Gsd2UnavailableCause, ReadGsd2DatabaseOptions } from './read-gsd2-database';
export type { Gsd2DatabaseState, Gsd2MilestoneEntry, Gsd2SliceEntry, Gsd2TaskEntry } from './derive';
export { SUPPORTED_SCHEMA_VERSION } from './schema';
