// Where GSD-2 finds a milestone's or slice's folder and files, for the two questions the DB
// derivation asks the disk: does the active sketch slice already have a PLAN (GSD then clears the
// sketch flag), and which folder to show for a unit. Rules from gsd-build/gsd-2 at 76568edc,
// src/resources/extensions/gsd/paths.ts (`resolveDir`, `resolveFile`, `resolveSliceFile`): a folder
// named the id, then the same case-insensitively, then a legacy `ID-DESCRIPTION` folder; a file
// `ID-SUFFIX.md` case-insensitively, then `ID-…-SUFFIX.md`, then a bare `suffix.md`.
// Confined: a folder (`slices`, `tasks`, or one above them) linked out of the real `.gsd` is not
// listed, so no file found through it is read or pointed at; each such folder is said once.
import * as path from 'node:path';
import { confine, listConfinedFolder, rememberListedFolders } from '../files/confine';

interface Entry {
  name: string;
  isDirectory: boolean;
}

/** Folder listings, read once per derivation. */
export class UnitPaths {
  private readonly listings = new Map<string, Entry[]>();
  private readonly dirs = new Map<string, string | null>();
  /** Resolved folders by milestone id and by milestone and slice id: asked for every unit of the registry, joined once. */
  private readonly unitDirs = new Map<string, string | null>();
  private readonly milestonesDir: string;
  /** Folders not listed because they lead out of `.gsd`, one line each. */
  readonly refused: string[] = [];

  constructor(private readonly gsdDir: string) {
    this.milestonesDir = path.join(gsdDir, 'milestones');
  }

  private list(dir: string): Entry[] {
    let entries = this.listings.get(dir);
    if (!entries) {
      entries = [];
      try {
        // Judged at the open (a link inside `.gsd` to another folder of it is fine): the path itself
        // is never resolved, as most of these folders are only named, never read from.
        entries = listConfinedFolder(dir).entries.map((e) => ({ name: e.name, isDirectory: e.isDirectory() }));
        rememberListedFolders(dir, entries.filter((e) => e.isDirectory).map((e) => e.name));
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'ENOENT' && code !== 'ENOTDIR') this.refused.push(`${dir}: ${(error as Error).message}; nothing under it is read`);
      }
      this.listings.set(dir, entries);
    }
    return entries;
  }

  /** `file` resolves inside the real `.gsd` (it need not exist). */
  inside(file: string): boolean {
    try {
      confine(this.gsdDir, file);
      return true;
    } catch {
      return false;
    }
  }

  private resolveDir(parent: string, id: string): string | null {
    const key = `${parent}\0${id}`;
    let dir = this.dirs.get(key);
    if (dir === undefined) {
      dir = this.findDir(parent, id);
      this.dirs.set(key, dir);
    }
    return dir;
  }

  private findDir(parent: string, id: string): string | null {
    const dirs = this.list(parent).filter((e) => e.isDirectory);
    const lower = id.toLowerCase();
    const hit =
      dirs.find((e) => e.name === id) ??
      dirs.find((e) => e.name.toLowerCase() === lower) ??
      dirs.find((e) => e.name.toLowerCase().startsWith(`${lower}-`));
    // `parent` is a joined path and an entry name has no separator: a plain concatenation is the
    // join (path.join normalizes the whole string again, for every unit of the registry).
    return hit ? parent + path.sep + hit.name : null;
  }

  private resolveFile(dir: string, id: string, suffix: string): string | null {
    const files = this.list(dir).filter((e) => !e.isDirectory);
    const upperId = id.toUpperCase();
    const direct = `${upperId}-${suffix.toUpperCase()}.MD`;
    const legacyTail = `-${suffix.toUpperCase()}.MD`;
    const hit =
      files.find((e) => e.name.toUpperCase() === direct) ??
      files.find((e) => {
        const upper = e.name.toUpperCase();
        return upper.startsWith(`${upperId}-`) && upper.endsWith(legacyTail) && upper.length >= upperId.length + 1 + legacyTail.length;
      }) ??
      files.find((e) => e.name.toLowerCase() === `${suffix.toLowerCase()}.md`);
    return hit ? path.join(dir, hit.name) : null;
  }

  milestoneDir(milestoneId: string): string | null {
    let dir = this.unitDirs.get(milestoneId);
    if (dir === undefined) {
      dir = this.resolveDir(this.milestonesDir, milestoneId);
      this.unitDirs.set(milestoneId, dir);
    }
    return dir;
  }

  sliceDir(milestoneId: string, sliceId: string): string | null {
    const key = `${milestoneId}\0${sliceId}`;
    let dir = this.unitDirs.get(key);
    if (dir === undefined) {
      const m = this.milestoneDir(milestoneId);
      dir = m ? this.resolveDir(m + path.sep + 'slices', sliceId) : null;
      this.unitDirs.set(key, dir);
    }
    return dir;
  }

  sliceFile(milestoneId: string, sliceId: string, suffix: string): string | null {
    const s = this.sliceDir(milestoneId, sliceId);
    return s ? this.resolveFile(s, sliceId, suffix) : null;
  }

  /** A task's file (`tasks/T01-SUMMARY.md`), by the same rules inside the slice's `tasks/` folder. */
  taskFile(milestoneId: string, sliceId: string, taskId: string, suffix: string): string | null {
    const s = this.sliceDir(milestoneId, sliceId);
    return s ? this.resolveFile(path.join(s, 'tasks'), taskId, suffix) : null;
  }

  milestoneFile(milestoneId: string, suffix: string): string | null {
    const m = this.milestoneDir(milestoneId);
    return m ? this.resolveFile(m, milestoneId, suffix) : null;
  }
}
