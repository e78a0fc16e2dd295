// GSD's folder and file naming: `.gsd/milestones/<MID>/slices/<SID>/tasks/`, files named
// `<ID>-<SUFFIX>.md`, matched case-insensitively, plus the legacy descriptive names GSD still
// accepts (`M001-FLIGHT-SIM/`, `T03-INSTALL-PACKAGES-PLAN.md`).
import * as path from 'node:path';
import type { DirEntry } from './gsd-store';

// Letters in both cases rather than the `i` flag: V8 compiles a case-insensitive pattern several
// times slower, and its first one in a process costs more still (docs/speed.md). Same matches.
export const MILESTONE_FOLDER = /^[Mm](\d+)(?:-([a-zA-Z0-9]{6}))?(?:-.*)?$/;
/** `T01` at the start of a task file's name (`T01-PLAN.md`, `T01-CODE-REVIEW.md`). */
export const TASK_FILE_ID = /^([Tt]\d+)-/;
/** `S01` of a slice folder's name (`S01`, `S01-descriptive`). */
export const SLICE_FOLDER_ID = /^([Ss]\d+)(?:-|$)/;
export const TASK_ID_START = /^([Tt]\d+)/;

/** Milestone id from its folder name: `M001`, `M001-abc123` (suffixed), `M001-FLIGHT-SIM` (legacy). */
export function milestoneIdFromDir(name: string): string | null {
  const m = MILESTONE_FOLDER.exec(name);
  if (!m) return null;
  // A six-character lower-case tail is GSD's unique suffix; anything else is a legacy description.
  const suffix = m[2] && m[2] === m[2].toLowerCase() && /^[a-z0-9]{6}$/.test(m[2]) ? `-${m[2]}` : '';
  return `M${m[1]}${suffix}`;
}

export function milestoneSeq(id: string): number {
  const m = /^M(\d+)/.exec(id);
  return m ? Number(m[1]) : Number.MAX_SAFE_INTEGER;
}

const NO_ENTRIES: Array<{ upper: string; entry: DirEntry }> = [];

/** One folder's entries, indexed for GSD's case-insensitive lookups. */
export class DirIndex {
  private readonly byName = new Map<string, DirEntry>();
  /**
   * Entries by upper-cased name, first one winning. Built on the first lookup that misses the name as
   * given: GSD writes canonical names, so most folders of a full derive never need it.
   */
  private byUpper: Map<string, DirEntry> | null = null;
  /**
   * Entries by the upper-cased part before their first hyphen (`T03` of `T03-INSTALL-PLAN.md`), for
   * legacy names. Built on the first lookup that misses the exact name, like `byUpper`.
   */
  private byIdPrefix: Map<string, Array<{ upper: string; entry: DirEntry }>> | null = null;

  constructor(
    readonly dir: string,
    readonly entries: readonly DirEntry[],
  ) {
    for (const e of entries) this.byName.set(e.name, e);
  }

  private upperIndex(): Map<string, DirEntry> {
    if (this.byUpper) return this.byUpper;
    const index = new Map<string, DirEntry>();
    for (const e of this.entries) {
      const upper = e.name.toUpperCase();
      if (!index.has(upper)) index.set(upper, e);
    }
    this.byUpper = index;
    return index;
  }

  /** The entry named `name`, exactly or case-insensitively. */
  private named(name: string): DirEntry | undefined {
    const exact = this.byName.get(name);
    return exact && (exact.isFile || exact.isDirectory) ? exact : this.upperIndex().get(name.toUpperCase());
  }

  private prefixIndex(): Map<string, Array<{ upper: string; entry: DirEntry }>> {
    if (this.byIdPrefix) return this.byIdPrefix;
    const index = new Map<string, Array<{ upper: string; entry: DirEntry }>>();
    // forEach, not for-of over entries: cold code allocated an [upper, entry] pair and a result per entry.
    this.upperIndex().forEach((entry, upper) => {
      const dash = upper.indexOf('-');
      if (dash <= 0) return;
      const key = upper.slice(0, dash);
      const list = index.get(key);
      if (list) list.push({ upper, entry });
      else index.set(key, [{ upper, entry }]);
    });
    this.byIdPrefix = index;
    return index;
  }

  /** Entries whose name starts with `ID-` (the id may itself hold a hyphen: `M001-abc123`). */
  private withPrefix(id: string): Array<{ upper: string; entry: DirEntry }> {
    const prefix = `${id.toUpperCase()}-`;
    return this.sharingPrefix(id).filter((c) => c.upper.startsWith(prefix));
  }

  /** Entries whose name starts with the id's part before its first hyphen (a superset of withPrefix). */
  private sharingPrefix(id: string): Array<{ upper: string; entry: DirEntry }> {
    const upperId = id.toUpperCase();
    const dash = upperId.indexOf('-');
    return this.prefixIndex().get(dash === -1 ? upperId : upperId.slice(0, dash)) ?? NO_ENTRIES;
  }

  /** Folder for a unit id: exact name first, then a legacy `ID-DESCRIPTION` folder. */
  subdir(id: string): string | null {
    const exact = this.named(id);
    if (exact?.isDirectory) return this.join(exact.name);
    const legacy = this.withPrefix(id)
      .filter((c) => c.entry.isDirectory)
      .sort((a, b) => a.entry.name.localeCompare(b.entry.name))[0];
    return legacy ? this.join(legacy.entry.name) : null;
  }

  /** `<ID>-<SUFFIX>.md`, then the legacy `<ID>-<description>-<SUFFIX>.md`. */
  file(id: string, suffix: string): string | null {
    const name = this.fileName(id, suffix);
    return name === null ? null : this.join(name);
  }

  /** The entry name `file()` finds, without the folder. */
  fileName(id: string, suffix: string): string | null {
    const direct = this.named(`${id}-${suffix}.md`);
    if (direct?.isFile) return direct.name;
    // The hyphen before the suffix keeps S01-REPLAN.md from being taken for S01's PLAN.
    // withPrefix().find() without the filtered copy: most tasks miss several files (no review yet).
    const tail = `-${suffix.toUpperCase()}.MD`;
    const minLength = id.length + tail.length + 2;
    const prefix = `${id.toUpperCase()}-`;
    for (const c of this.sharingPrefix(id)) {
      if (c.entry.isFile && c.upper.startsWith(prefix) && c.upper.endsWith(tail) && c.upper.length >= minLength) return c.entry.name;
    }
    return null;
  }

  /** Whether the listing saw a regular file by exactly this name (reading it may skip a check). */
  isRegular(name: string): boolean {
    return this.byName.get(name)?.isRegular === true;
  }

  has(name: string): boolean {
    return this.named(name) !== undefined;
  }

  /**
   * `dir` is already normalised and `name` is one entry, so joining them is path.join here. Array#join
   * makes a flat string; `+` makes a rope that the cache lookup and the read then flatten (a full
   * derive measured ~3% faster this way).
   */
  join(name: string): string {
    return [this.dir, name].join(path.sep);
  }
}

export function milestonesDir(gsdDir: string): string {
  return path.join(gsdDir, 'milestones');
}

/** Kinds of GSD file the core parses, recognised from a path inside `.gsd`. */
export type GsdFileKind =
  | 'preferences'
  | 'queue-order'
  | 'roadmap'
  | 'milestone-summary'
  | 'milestone-context'
  | 'milestone-validation'
  | 'milestone-parked'
  | 'slice-plan'
  | 'slice-summary'
  | 'slice-replan'
  | 'slice-replan-trigger'
  | 'slice-continue'
  | 'task-plan'
  | 'task-summary'
  | 'code-review'
  | 'other';

export interface GsdFileRef {
  kind: GsdFileKind;
  milestoneDir?: string;
  sliceDir?: string;
  taskId?: string;
}

/**
 * Where a changed path sits in the tree, so an index can drop exactly what depended on it.
 * `rel` is relative to the real `.gsd` folder, with forward or back slashes.
 */
export function classifyGsdPath(rel: string): GsdFileRef {
  const parts = rel.split(/[\\/]/).filter(Boolean);
  if (parts.length === 1 && parts[0].toUpperCase() === 'PREFERENCES.MD') return { kind: 'preferences' };
  if (parts.length === 1 && parts[0] === 'QUEUE-ORDER.json') return { kind: 'queue-order' };
  if (parts[0] !== 'milestones' || parts.length < 2) return { kind: 'other' };
  const milestoneDir = parts[1];
  const name = parts[parts.length - 1].toUpperCase();
  if (parts.length === 3) {
    if (name.endsWith('-ROADMAP.MD')) return { kind: 'roadmap', milestoneDir };
    if (name.endsWith('-SUMMARY.MD')) return { kind: 'milestone-summary', milestoneDir };
    if (name.endsWith('-CONTEXT.MD') || name.endsWith('-CONTEXT-DRAFT.MD')) return { kind: 'milestone-context', milestoneDir };
    if (name.endsWith('-VALIDATION.MD')) return { kind: 'milestone-validation', milestoneDir };
    if (name.endsWith('-PARKED.MD')) return { kind: 'milestone-parked', milestoneDir };
    return { kind: 'other', milestoneDir };
  }
  if (parts[2] !== 'slices' || parts.length < 4) return { kind: 'other', milestoneDir };
  const sliceDir = parts[3];
  if (parts.length === 5) {
    if (name.endsWith('-REPLAN.MD')) return { kind: 'slice-replan', milestoneDir, sliceDir };
    if (name.endsWith('-REPLAN-TRIGGER.MD')) return { kind: 'slice-replan-trigger', milestoneDir, sliceDir };
    if (name.endsWith('-PLAN.MD')) return { kind: 'slice-plan', milestoneDir, sliceDir };
    if (name.endsWith('-SUMMARY.MD')) return { kind: 'slice-summary', milestoneDir, sliceDir };
    if (name.endsWith('-CONTINUE.MD') || name === 'CONTINUE.MD') return { kind: 'slice-continue', milestoneDir, sliceDir };
    return { kind: 'other', milestoneDir, sliceDir };
  }
  if (parts[4] !== 'tasks' || parts.length !== 6) return { kind: 'other', milestoneDir, sliceDir };
  const taskId = TASK_ID_START.exec(parts[5])?.[1]?.toUpperCase();
  if (/-CODE-REVIEW(?:-C\d+)?\.MD$/.test(name)) return { kind: 'code-review', milestoneDir, sliceDir, taskId };
  if (name.endsWith('-PLAN.MD')) return { kind: 'task-plan', milestoneDir, sliceDir, taskId };
  if (name.endsWith('-SUMMARY.MD')) return { kind: 'task-summary', milestoneDir, sliceDir, taskId };
  return { kind: 'other', milestoneDir, sliceDir, taskId };
}
