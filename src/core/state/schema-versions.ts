// The successor's (@opengsd/gsd-pi 1.x) database versions as this reader knows them. Facts from
// gsd-pi's db/engine.ts: SCHEMA_VERSION (48 in 1.16, 51 on main), GSD_APPLICATION_ID (the ASCII
// bytes "GSDB"), the V46 cutover stamp (PRAGMA application_id + user_version = schema version), and
// SchemaTooNewError (GSD refuses a newer schema before touching the file).

/** `PRAGMA application_id` of every successor database from schema 46 on ("GSDB"). */
export const GSD_APPLICATION_ID = 0x47534442;

/** The newest schema this reader knows; a newer one is refused with one message. */
export const LATEST_KNOWN_SCHEMA = 51;

/** The oldest schema the successor writes today (1.16); older successor databases are read as far as their tables go. */
export const OLDEST_CURRENT_SCHEMA = 48;

/** GSD-2 (gsd-build/gsd-2, gsd-pi 3.x) never went past this schema; the successor forked from it. */
export const LAST_GSD2_SCHEMA = 29;

/** The one message for a database newer than this reader (GSD itself refuses with GSDSchemaTooNewError). */
export function schemaTooNewMessage(schemaVersion: number): string {
  return `gsd.db is at schema ${schemaVersion}, newer than the ${LATEST_KNOWN_SCHEMA} this extension knows; nothing was read from it. Update GSD Review Loop to read this project.`;
}
