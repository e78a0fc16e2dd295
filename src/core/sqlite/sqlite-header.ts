// The first 100 bytes of an SQLite file, read with plain fs: enough to recognise a successor
// database without node:sqlite (Node 20). Offsets from SQLite's documented file format
// (https://www.sqlite.org/fileformat.html, "The Database Header"): magic string at 0, write/read
// format versions at 18/19 (2 = WAL), user_version at 60, application_id at 68, both big-endian.
// Caveat: a stamp still in the WAL (not yet checkpointed) is not in the header yet; node:sqlite's
// PRAGMA reads see it, this does not.
import * as fs from 'node:fs';

export interface SqliteHeader {
  userVersion: number;
  applicationId: number;
  /** The file is in WAL journal mode (format versions 2). */
  wal: boolean;
}

const MAGIC = 'SQLite format 3\0';
const HEADER_SIZE = 100;

/** The header, or null when the file is missing, too short or not an SQLite database. */
export function readSqliteHeader(file: string): SqliteHeader | null {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    const buf = Buffer.alloc(HEADER_SIZE);
    const n = fs.readSync(fd, buf, 0, HEADER_SIZE, 0);
    if (n < HEADER_SIZE || buf.toString('latin1', 0, 16) !== MAGIC) return null;
    return {
      userVersion: buf.readInt32BE(60),
      applicationId: buf.readUInt32BE(68),
      wal: buf[18] === 2 && buf[19] === 2,
    };
  } catch {
    return null;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
