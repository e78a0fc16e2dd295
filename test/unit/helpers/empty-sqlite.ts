// A valid, empty SQLite database file without node:sqlite (Node 20): the 100-byte header and one
// empty table b-tree leaf page, laid out per sqlite.org's file format ("The Database Header", "B-tree
// Pages"). Unstamped (application_id and user_version 0): beside a `milestones/` tree it is what
// detectProjectKind takes for a GSD-2 database, with or without node:sqlite.
export function emptySqliteDatabase(): Buffer {
  const page = Buffer.alloc(4096);
  page.write('SQLite format 3\0', 0, 'latin1');
  page.writeUInt16BE(4096, 16); // page size
  page[18] = 1; // write and read format: legacy (rollback journal)
  page[19] = 1;
  page[21] = 64; // payload fractions, fixed by the format
  page[22] = 32;
  page[23] = 32;
  page.writeUInt32BE(1, 24); // file change counter
  page.writeUInt32BE(1, 28); // size in pages
  page.writeUInt32BE(4, 44); // schema format 4
  page.writeUInt32BE(1, 56); // UTF-8
  page.writeUInt32BE(1, 92); // version-valid-for = change counter
  page.writeUInt32BE(3045000, 96); // SQLITE_VERSION_NUMBER that wrote it
  page[100] = 0x0d; // page 1: a leaf table b-tree with no cells
  page.writeUInt16BE(4096, 105); // cell content area starts at the page end
  return page;
}
