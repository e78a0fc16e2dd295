// Our runtime folder, `.gsd/gsd-review-loop/`: dispatch record, hook log, prompt files, answer
// cache, lifecycle state, the write lock and the commit journal. It ignores itself (a `.gitignore` of
// `*` inside it), so these per-machine files stay out of the user's commits whatever the project's
// own .gitignore says.
//
// Not `.gsd/runtime/`: that is GSD's own working folder, and its doctor deletes files there. GSD-2
// (gsd-build/gsd-2 at 76568edc) never lists, writes or cleans a `.gsd/` entry it does not know:
// its gitignore patterns, doctor checks and worktree skip lists name only its own folders
// (`runtime/`, `activity/`, `worktrees/`, `journal/`…), its stray-lock cleanup matches `auto *.lock`
// only, and moving `.gsd` to external storage copies every entry along. `.gsd/extensions/` is out
// too: GSD imports code there as pi extensions.
//
// Records of an older version in `.gsd/runtime/gsd-review-loop/` are moved here once
// (moveOldRuntimeRecords), before anything reads them.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createExclusive, linkInFolder, replaceAtomically, tempNameFor } from './atomic-write';
import { readBoundedText } from './bounded-read';
import { confine, confinedDir, isWithin } from './confine';

/** Our runtime folder, relative to the real `.gsd`. */
export const RUNTIME_FOLDER = 'gsd-review-loop';
/** Where versions before the sidecars kept it (GSD's own working folder). */
export const OLD_RUNTIME_FOLDER = path.join('runtime', 'gsd-review-loop');

export function runtimeDir(gsdDir: string): string {
  return path.join(gsdDir, RUNTIME_FOLDER);
}

const IGNORE_ALL = '# Written by GSD Review Loop: runtime files of this machine, never committed.\n*\n';

/** What link() says on a file system without hard links (FAT, exFAT: EPERM; some network ones: the others). */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV']);

/**
 * Puts our `.gitignore` in place whole: written under a temp name, then linked to its name (which
 * fails if anything, even a dangling link, is there: two processes starting at once do not both
 * write, and a planted link is never written through). A write that fails (a full disk) leaves no
 * `.gitignore` at all, so the next write of ours tries again. Where the file system has no hard
 * links (a FAT drive), it is created under its own name, exclusively: a write cut short there leaves
 * a short one, which ensureRuntimeDir replaces.
 */
function placeIgnore(ignore: string): void {
  const tmp = tempNameFor(ignore);
  try {
    createExclusive(tmp, IGNORE_ALL);
    try {
      linkInFolder(path.dirname(ignore), path.basename(tmp), path.basename(ignore));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (code === 'EEXIST') return;
      if (!NO_HARD_LINKS.has(code)) throw error;
      try {
        createExclusive(ignore, IGNORE_ALL);
      } catch (again) {
        if ((again as NodeJS.ErrnoException).code !== 'EEXIST') throw again;
      }
    }
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

/** The runtime folder, created with its `.gitignore` when missing. Best effort: never throws. */
export function ensureRuntimeDir(gsdDir: string): string {
  const dir = runtimeDir(gsdDir);
  try {
    // Confined: a runtime folder (or any folder above it) linked out of `.gsd` is refused, not created through.
    const real = confinedDir(gsdDir, RUNTIME_FOLDER);
    const ignore = path.join(real, '.gitignore');
    // One lstat on every write of ours: ours, whole, is exactly this long.
    const stat = fs.lstatSync(ignore, { throwIfNoEntry: false });
    if (!stat) placeIgnore(ignore);
    else if (stat.isFile() && stat.size < IGNORE_ALL.length && IGNORE_ALL.startsWith(readBoundedText(ignore, IGNORE_ALL.length) ?? '')) {
      // Empty or cut short: what a first write that failed midway left (an older version wrote it in
      // place). Git would offer our records for commit; replaced whole. One the user changed is theirs.
      replaceAtomically(ignore, IGNORE_ALL);
    }
  } catch {
    // read-only .gsd, a racing writer or a link out of .gsd: the caller's own (confined) write reports what matters
  }
  return dir;
}

/** Entries of the old folder not worth carrying over: a lock of the old place, caches, temp files. */
function disposable(name: string): boolean {
  return name === 'commit.lock' || name === 'commit.lock.owner' || name === 'hook-answers' || (name.startsWith('.') && name.endsWith('.tmp'));
}

/**
 * Moves an older version's runtime records from `.gsd/runtime/gsd-review-loop/` into our folder, once.
 * When our folder does not exist yet, the old one is renamed into place (one step; a dispatch in
 * flight, an interrupted commit's journal and the hook log all keep working). When both exist,
 * what our folder lacks is moved in and the rest of the old folder removed. The old folder must be a
 * real folder inside the real `.gsd`: a link there (out of `.gsd` or not) is left alone and said.
 * Cheap when there is nothing to move (one failed lstat). Returns notes; never throws.
 */
export function moveOldRuntimeRecords(gsdDir: string): string[] {
  const old = path.join(gsdDir, OLD_RUNTIME_FOLDER);
  let stat: fs.Stats | undefined;
  try {
    stat = fs.lstatSync(old, { throwIfNoEntry: false });
  } catch {
    return [];
  }
  if (!stat) return [];
  try {
    const root = fs.realpathSync(gsdDir);
    // `.gsd/runtime` itself is GSD's: if it is a link out of `.gsd`, nothing below it is ours to move.
    const oldReal = confine(gsdDir, OLD_RUNTIME_FOLDER);
    if (!stat.isDirectory() || !isWithin(root, oldReal) || oldReal !== path.join(root, OLD_RUNTIME_FOLDER)) {
      return [`${old} is not a plain folder (a link or a file); old runtime records left where they are`];
    }
    const target = path.join(root, RUNTIME_FOLDER);
    if (!fs.lstatSync(target, { throwIfNoEntry: false })) {
      try {
        fs.renameSync(oldReal, target);
        return [`moved runtime records from ${old} to ${target}`];
      } catch (error) {
        // Another process of ours moved it first (then the folder is there now), or a read-only `.gsd`.
        if (!fs.existsSync(target)) return [`could not move ${old} to ${target} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); left where it is`];
      }
    }
    const real = confinedDir(gsdDir, RUNTIME_FOLDER);
    const moved: string[] = [];
    for (const name of fs.readdirSync(oldReal)) {
      const from = path.join(oldReal, name);
      const to = path.join(real, name);
      if (disposable(name) || name === '.gitignore' || fs.lstatSync(to, { throwIfNoEntry: false })) continue;
      try {
        fs.renameSync(from, to);
        moved.push(name);
      } catch {
        // left in the old folder, removed with it below
      }
    }
    // What is left is a duplicate of a newer record or a cache; links inside are removed as names.
    fs.rmSync(oldReal, { recursive: true, force: true });
    return [`moved runtime records from ${old} to ${real}${moved.length ? ` (${moved.join(', ')})` : ''}; the old folder was removed`];
  } catch (error) {
    return [`could not move old runtime records from ${old}: ${(error as Error).message}`];
  }
}
