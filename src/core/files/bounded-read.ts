// Reading a file from a repository without trusting it: only a regular file is read, never through
// a last-component symlink (callers pass real paths), and its size is checked on the open file before
// a byte is read. A FIFO does not block (opened non-blocking, then refused), `/dev/zero` or a huge
// file is refused instead of filling memory.
import { closeSync, constants, fstatSync, openSync, readFileSync, readSync, type Stats } from 'node:fs';

/** A file we will not read: not a regular file, or too large. Its message is the diagnostic. */
export class UnreadableFileError extends Error {
  constructor(
    readonly file: string,
    readonly reason: 'not-regular' | 'too-large',
    message: string,
  ) {
    super(message);
    this.name = 'UnreadableFileError';
  }
}

/** GSD's markdown and our records are small; past this a file is a mistake or an attack. */
export const MAX_READ_BYTES = 2 * 1024 * 1024;

const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

function kindOf(stat: Stats): string {
  if (stat.isDirectory()) return 'a folder';
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isSocket()) return 'a socket';
  if (stat.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function openPlain(file: string, flags: number): number | null {
  try {
    return openSync(file, flags);
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

/**
 * The bytes of a regular file, at most `maxBytes` (null when it does not exist). With `tail`, a
 * larger file is not refused: its last `maxBytes` are returned (for append-only logs). `open` is
 * how the file is opened (default: as it is named, never through a last-component link); the
 * confined reader passes openConfined.
 */
export function readBoundedBytes(file: string, maxBytes = MAX_READ_BYTES, tail = false, open: (file: string, flags: number) => number | null = openPlain): Buffer | null {
  return readBounded(file, maxBytes, tail, open, false) as Buffer | null;
}

/**
 * `listedRegular`: a listing of the file's folder taken moments ago saw a regular file by this name
 * (the full derive lists every folder it reads). Then the file is read straight away and the open
 * file is checked (fstat) only when the read says something is off: nothing read, an error, or more
 * than fits in memory's first buffer. A thing swapped in since the listing is still opened
 * non-blocking and read bounded, at explicit positions, which a FIFO or a terminal refuses (ESPIPE),
 * so it goes the checked way and is refused.
 */
export function readBoundedText(file: string, maxBytes = MAX_READ_BYTES, open?: (file: string, flags: number) => number | null, listedRegular = false): string | null {
  return readBounded(file, maxBytes, false, open ?? openPlain, true, listedRegular) as string | null;
}

/**
 * Where a text read lands before it is decoded: a derive reads thousands of small files, and a
 * fresh buffer for each (with readFileSync's own second fstat) cost a tenth of a full derive.
 */
const scratch = Buffer.allocUnsafe(64 * 1024);

/** Up to this many bytes, a regular file's first short read is all of it (one page of any filesystem's cache). */
const WHOLE_IN_ONE_READ = 4096;

/**
 * A listed regular file read into the scratch buffer without an fstat (whose Stats object was a
 * sixth of a full derive's allocations), or null when the file must go the checked way: it read as
 * empty (a FIFO without a writer reads so too), the read failed (a folder, a FIFO, a terminal) or the
 * file does not fit the buffer. Positions are explicit, so the checked way reads from the start again.
 */
function readListedRegular(fd: number, maxBytes: number): string | null {
  const room = Math.min(scratch.length, maxBytes + 1);
  let got = 0;
  try {
    for (;;) {
      const n = readSync(fd, scratch, got, room - got, got);
      if (n === 0) break;
      got += n;
      if (got === room) return null;
      // A regular file returns less than asked only at its end (read(2)); a small one is whole after
      // one read, and asking again only to be told so was a second system call for nearly every file
      // of a full derive. Larger files are read until the end is confirmed, for filesystems that
      // serve a big read in parts.
      if (got <= WHOLE_IN_ONE_READ) break;
    }
  } catch {
    return null;
  }
  return got === 0 ? null : scratch.toString('utf8', 0, got);
}

function readBounded(file: string, maxBytes: number, tail: boolean, open: (file: string, flags: number) => number | null, asText: boolean, listedRegular = false): Buffer | string | null {
  let fd: number | null;
  try {
    fd = open(file, OPEN_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw new UnreadableFileError(file, 'not-regular', `${file} is a symbolic link where a file was expected; not read`);
    if (code === 'ENXIO') throw new UnreadableFileError(file, 'not-regular', `${file} is not a regular file; not read`);
    throw error;
  }
  if (fd === null) return null;
  try {
    if (asText && listedRegular) {
      const text = readListedRegular(fd, maxBytes);
      if (text !== null) return text;
    }
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new UnreadableFileError(file, 'not-regular', `${file} is ${kindOf(stat)}, not a regular file; not read`);
    if (asText && stat.size > 0 && stat.size <= maxBytes) {
      // The common case of a derive: the size just checked on this open file, read to that size
      // (as readFileSync does), decoded straight from the buffer.
      const size = stat.size;
      const buf = size <= scratch.length ? scratch : Buffer.allocUnsafe(size);
      let got = 0;
      while (got < size) {
        const n = readSync(fd, buf, got, size - got, got);
        if (n === 0) break;
        got += n;
      }
      return buf.toString('utf8', 0, got);
    }
    if (stat.size <= maxBytes) {
      // In one call. The size was checked on this open file just now; a regular file someone
      // appends to meanwhile is read to its end as it is then.
      const buf = readFileSync(fd);
      if (buf.length <= maxBytes) return asText ? buf.toString('utf8') : buf;
      if (!tail) throw new UnreadableFileError(file, 'too-large', `${file} grew past the ${(maxBytes / 1048576).toFixed(1)} MB limit while being read; not read`);
      return buf.subarray(buf.length - maxBytes);
    }
    if (!tail) {
      throw new UnreadableFileError(file, 'too-large', `${file} is ${(stat.size / 1048576).toFixed(1)} MB, too large for a GSD file (limit ${(maxBytes / 1048576).toFixed(1)} MB); not read`);
    }
    const start = stat.size - maxBytes;
    const buf = Buffer.allocUnsafe(maxBytes);
    let got = 0;
    while (got < maxBytes) {
      const n = readSync(fd, buf, got, maxBytes - got, start + got);
      if (n === 0) break;
      got += n;
    }
    return got === maxBytes ? buf : buf.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}
