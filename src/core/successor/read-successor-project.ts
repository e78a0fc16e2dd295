// A read-only GSDState of a successor project (@opengsd/gsd-pi 1.x). The database is the truth
// when node:sqlite can read it; otherwise (Node 20, no gsd.db in a clone) the `.gsd/phases/`
// markdown is read and the state says so, with one diagnostic line saying why. Nothing under
// `.gsd` is ever written: only GSD's own running attempts record progress there.
import * as fs from 'node:fs';
import { MAX_READ_BYTES, readBoundedText } from '../files/bounded-read';
import { openConfined, registerGsdRoot } from '../files/confine';
import * as path from 'node:path';
import { parsePreferences } from '../parse/preferences';
import type { Diagnostic, GSDState, MilestoneEntry, Progress } from '../model/types';
import { effectiveStatus, type StatusFrom } from './lifecycle-status';
import { readPhaseLayout, type LayoutMilestone, type PhaseLayout } from './phase-layout';
import { detectProjectKind, type ProjectKindReport } from '../state/project-kind';
import { nodeSqliteAvailability, readDatabase } from '../sqlite/read-only-database';
import { blockingHooks } from './review-verdicts';
import { LATEST_KNOWN_SCHEMA, schemaTooNewMessage } from '../state/schema-versions';
import { readSuccessorRows, type DbLifecycle, type SuccessorRows } from './successor-database';
import { readPhase } from './successor-phase';
import type { StateVersionStamp } from './state-version-stamp';
import { buildTask, milestoneStatus, progressOf, sliceEntry, type ReviewSources } from './successor-units';
import { readGateView } from '../successor-gate/gate-view';
import { userHome } from '../files/user-home';

export interface SuccessorState extends GSDState {
  source: 'successor';
  /** Always true: nothing of a successor project is written by us. */
  readOnly: true;
  /** `database`: gsd.db was read; `layout`: only the `.gsd/phases/` markdown (see diagnostics for why). */
  readFrom: 'database' | 'layout';
  /** Where statuses came from: lifecycle rows (authority epoch > 0), the old status columns, or the markdown. */
  statusFrom: StatusFrom;
  schemaVersion: number | null;
  projectRevision: number | null;
  authorityEpoch: number | null;
  /** The newest `<!-- gsd:state-version=R:E -->` stamp of the markdown read. */
  layoutStateVersion: StateVersionStamp | null;
  /** Set when nothing was read: the one message why (a schema newer than we know). */
  refused: string | null;
  /** The blocking post-unit hooks PREFERENCES names (GSD's reviews). */
  reviewHooks: string[];
  /** Folder names under `.gsd-worktrees/` beside `.gsd`. */
  worktrees: string[];
  detection: ProjectKindReport;
}

export interface ReadSuccessorOptions {
  /** `off` reads the markdown only, as on a Node without node:sqlite. Default `auto`. */
  sqlite?: 'auto' | 'off';
}


function emptyProgress(): Progress {
  return { done: 0, total: 0 };
}

function listWorktrees(root: string): string[] {
  try {
    return fs
      .readdirSync(path.join(root, '.gsd-worktrees'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

function readPreferencesData(gsdDir: string, diagnostics: Diagnostic[]): Record<string, unknown> {
  for (const name of ['PREFERENCES.md', 'preferences.md']) {
    const file = path.join(gsdDir, name);
    let text: string | null;
    try {
      // Confined and bounded: a link out of .gsd, a FIFO or /dev/zero is a diagnostic, never read.
      text = readBoundedText(file, MAX_READ_BYTES, openConfined);
    } catch (error) {
      diagnostics.push({ file, severity: 'warning', message: `not read: ${(error as Error).message}` });
      continue;
    }
    if (text === null) continue;
    const prefs = parsePreferences(text, file);
    diagnostics.push(...prefs.diagnostics.filter((d) => d.severity === 'error'));
    return prefs.data;
  }
  return {};
}

function baseState(root: string, gsdDir: string, detection: ProjectKindReport, diagnostics: Diagnostic[]): SuccessorState {
  return {
    root,
    gsdDir,
    activeMilestone: null,
    activeSlice: null,
    activeTask: null,
    phase: 'pre-planning',
    blockers: [],
    nextAction: '',
    replanTrigger: null,
    milestones: [],
    progress: { milestones: emptyProgress(), slices: emptyProgress(), tasks: emptyProgress() },
    pendingActions: [],
    extensions: {},
    diagnostics,
    source: 'successor',
    readOnly: true,
    readFrom: 'layout',
    statusFrom: 'layout',
    schemaVersion: detection.schemaVersion ?? null,
    projectRevision: null,
    authorityEpoch: null,
    layoutStateVersion: null,
    refused: null,
    reviewHooks: [],
    worktrees: [],
    detection,
  };
}

function refuse(state: SuccessorState, message: string): SuccessorState {
  state.refused = message;
  state.phase = 'blocked';
  state.blockers = [message];
  state.nextAction = message;
  return state;
}

// ---- the two ways of reading ----------------------------------------------------------------

function fromDatabase(rows: SuccessorRows, layout: PhaseLayout, src: ReviewSources, diagnostics: Diagnostic[]): { milestones: MilestoneEntry[]; statusFrom: StatusFrom } {
  const epoch = rows.authorityEpoch;
  const lifecycle = new Map<string, DbLifecycle>();
  for (const l of rows.lifecycles) lifecycle.set(`${l.kind}:${l.milestoneId}/${l.sliceId ?? ''}/${l.taskId ?? ''}`, l);
  let missingLifecycle = 0;
  const status = (kind: DbLifecycle['kind'], milestoneId: string, sliceId: string | null, taskId: string | null, column: string) => {
    const l = lifecycle.get(`${kind}:${milestoneId}/${sliceId ?? ''}/${taskId ?? ''}`);
    if (epoch !== null && epoch > 0 && !l) missingLifecycle++;
    return effectiveStatus(column, l?.status, epoch);
  };
  const layoutById = new Map<string, LayoutMilestone>();
  for (const m of layout.milestones) layoutById.set(m.id, m);

  const milestones = rows.milestones.map((m): MilestoneEntry => {
    const lm = layoutById.get(m.id) ?? layout.milestones.find((x) => x.number === Number(/^M0*(\d+)/i.exec(m.id)?.[1] ?? NaN) && !rows.milestones.some((o) => o.id === x.id));
    const ms = status('milestone', m.id, null, null, m.status);
    const slices = rows.slices
      .filter((s) => s.milestoneId === m.id)
      .map((s) => {
        const ls = lm?.slices.find((x) => x.id === s.id);
        const ss = status('slice', m.id, s.id, null, s.status);
        const tasks = rows.tasks
          .filter((t) => t.milestoneId === m.id && t.sliceId === s.id)
          .map((t) => {
            const ts = status('task', m.id, s.id, t.id, t.status);
            return buildTask(
              {
                milestoneId: m.id,
                sliceId: s.id,
                id: t.id,
                title: t.title || t.id,
                cls: ts.cls,
                gsdStatus: ts.status,
                statusFrom: ts.from,
                estimate: t.estimate,
                files: t.files,
                verify: t.verify,
                completedAt: t.completedAt,
                verificationResult: t.verificationResult,
                blockerDiscovered: t.blockerDiscovered,
                knownIssuesText: t.knownIssues,
                layout: ls?.tasks.find((x) => x.id === t.id),
              },
              lm?.dir,
              src,
              src.databaseFile ?? '',
            );
          });
        return sliceEntry(ls, { id: s.id, title: s.title || s.id, cls: ss.cls, gsdStatus: ss.status, statusFrom: ss.from, risk: s.risk, depends: s.depends, demo: s.demo, replanning: !!s.replanTriggeredAt }, tasks, lm?.dir);
      });
    return {
      id: m.id,
      title: m.title || m.id,
      status: milestoneStatus(ms.cls),
      roadmapLoaded: true,
      dir: lm?.dir ?? '',
      roadmapFile: lm?.roadmapFile,
      summaryFile: lm?.summaryFile,
      dependsOn: m.dependsOn,
      slices,
      progress: progressOf(slices),
      extensions: { successor: { cls: ms.cls, gsdStatus: ms.status, statusFrom: ms.from, validationFile: lm?.validationFile, contextFile: lm?.contextFile } },
    };
  });
  if (missingLifecycle > 0) {
    diagnostics.push({ file: src.databaseFile ?? '', severity: 'info', message: `${missingLifecycle} item(s) have no lifecycle row although the authority epoch is ${epoch}; their old status column was used` });
  }
  return { milestones, statusFrom: epoch !== null && epoch > 0 ? 'lifecycle' : 'column' };
}

function fromLayout(layout: PhaseLayout, src: ReviewSources): MilestoneEntry[] {
  return layout.milestones.map((lm): MilestoneEntry => {
    const slices = lm.slices.map((ls) => {
      const tasks = ls.tasks.map((lt) =>
        buildTask(
          {
            milestoneId: lm.id,
            sliceId: ls.id,
            id: lt.id,
            title: lt.title,
            // GSD checks the box from its database, and writes the summary when the task completes.
            cls: lt.done || lt.summaryFile ? 'closed' : 'open',
            gsdStatus: lt.done || lt.summaryFile ? 'complete' : 'pending',
            statusFrom: 'layout',
            estimate: lt.estimate,
            files: lt.files,
            verify: lt.verify,
            completedAt: lt.summary?.completedAt,
            verificationResult: lt.summary?.verificationResult,
            blockerDiscovered: lt.summary?.blockerDiscovered ?? false,
            layout: lt,
          },
          lm.dir,
          src,
          ls.planFile ?? lm.dir,
        ),
      );
      const closed = ls.roadmapDone || !!ls.summaryFile;
      return sliceEntry(ls, { id: ls.id, title: ls.title, cls: closed ? 'closed' : 'open', gsdStatus: closed ? 'complete' : 'pending', statusFrom: 'layout', risk: ls.risk, depends: ls.depends, demo: ls.demo, replanning: false }, tasks, lm.dir);
    });
    const complete = !!lm.summaryFile;
    return {
      id: lm.id,
      title: lm.title,
      status: complete ? 'complete' : 'pending',
      roadmapLoaded: true,
      dir: lm.dir,
      roadmapFile: lm.roadmapFile,
      summaryFile: lm.summaryFile,
      dependsOn: [],
      slices,
      progress: progressOf(slices),
      extensions: { successor: { cls: complete ? 'closed' : 'open', gsdStatus: complete ? 'complete' : 'pending', statusFrom: 'layout', validationFile: lm.validationFile, contextFile: lm.contextFile } },
    };
  });
}

/**
 * The database's rows, or null when it is not read (no gsd.db, no node:sqlite, unreadable: the
 * markdown is read instead, and a diagnostic says why), or a schema GSD upgraded past this reader.
 */
function readRows(
  detection: ProjectKindReport,
  options: ReadSuccessorOptions,
  realGsd: string,
  diagnostics: Diagnostic[],
): { rows: SuccessorRows | null } | { tooNew: number; message: string } {
  if (detection.databaseFile) {
    const availability = options.sqlite === 'off' ? { available: false as const, reason: 'reading gsd.db was turned off (sqlite: off)' } : nodeSqliteAvailability();
    if (!availability.available) {
      diagnostics.push({ file: detection.databaseFile, severity: 'info', message: `read from the .gsd/phases markdown only: ${availability.reason}` });
    } else {
      const r = readDatabase(detection.databaseFile, readSuccessorRows);
      if (!r.ok) diagnostics.push({ file: detection.databaseFile, severity: 'warning', message: `read from the .gsd/phases markdown only: ${r.reason}` });
      else if (r.value.schemaVersion > LATEST_KNOWN_SCHEMA) {
        // Upgraded by GSD between detection and this read.
        const message = schemaTooNewMessage(r.value.schemaVersion);
        diagnostics.push({ file: detection.databaseFile, severity: 'error', message });
        return { tooNew: r.value.schemaVersion, message };
      } else return { rows: r.value };
    }
  } else {
    diagnostics.push({ file: path.join(realGsd, 'gsd.db'), severity: 'info', message: 'read from the .gsd/phases markdown only: there is no gsd.db (GSD keeps it out of git, so a fresh clone has none)' });
  }
  return { rows: null };
}

/** The active units marked as the markdown derivation marks them, and the progress and pending actions. */
function markActiveAndProgress(state: SuccessorState, reading: ReturnType<typeof readPhase>): void {
  const am = state.milestones.find((m) => m.id === reading.activeMilestone?.id);
  if (am) {
    am.status = 'active';
    const as = am.slices.find((s) => s.id === reading.activeSlice?.id);
    if (as && as.status === 'pending') as.status = 'active';
    const at = as?.tasks.find((t) => t.id === reading.activeTask?.id);
    if (at) at.status = 'active';
  }
  const slices = state.milestones.flatMap((m) => m.slices);
  const tasks = slices.flatMap((s) => s.tasks);
  state.progress = {
    milestones: { done: state.milestones.filter((m) => m.status === 'complete').length, total: state.milestones.length },
    slices: progressOf(slices),
    tasks: progressOf(tasks),
  };
  state.pendingActions = tasks.flatMap((t) => t.pendingActions);
}

// ---- the entry point ------------------------------------------------------------------------

export function readSuccessorProject(gsdDir: string, options: ReadSuccessorOptions = {}): SuccessorState {
  const diagnostics: Diagnostic[] = [];
  const given = path.resolve(gsdDir);
  let realGsd = given;
  try {
    realGsd = fs.realpathSync(given);
    // Every read below is confined to it, also when it is not named `.gsd` (a linked `.gsd`).
    registerGsdRoot(realGsd);
  } catch (error) {
    diagnostics.push({ file: given, severity: 'error', message: `.gsd could not be resolved: ${(error as Error).message}` });
  }
  const root = path.dirname(given);
  const detection = detectProjectKind(realGsd, options);
  const state = baseState(root, realGsd, detection, diagnostics);
  state.worktrees = listWorktrees(root);

  if (detection.kind !== 'successor') {
    diagnostics.push(...detection.diagnostics);
    diagnostics.push({ file: realGsd, severity: 'error', message: `not a successor (@opengsd/gsd-pi 1.x) project: ${detection.kind} (${detection.reasons.join('; ')})` });
    return refuse(state, `This .gsd is a ${detection.kind} project, not a successor project.`);
  }
  if (detection.tooNew) {
    // One message, nothing further read (GSD itself refuses with GSDSchemaTooNewError).
    diagnostics.push(...detection.diagnostics.filter((d) => d.severity === 'error').slice(0, 1));
    return refuse(state, schemaTooNewMessage(detection.schemaVersion!));
  }

  const hooks = blockingHooks(readPreferencesData(realGsd, diagnostics));
  state.reviewHooks = hooks.map((h) => h.name);

  const read = readRows(detection, options, realGsd, diagnostics);
  if ('tooNew' in read) {
    state.schemaVersion = read.tooNew;
    return refuse(state, read.message);
  }
  const rows = read.rows;

  // Detection's own notes, unless the read said the same (a busy database is one line, not two).
  diagnostics.push(...detection.diagnostics.filter((d) => !diagnostics.some((o) => o.message.includes(d.message))));

  const layout = readPhaseLayout(realGsd);
  diagnostics.push(...layout.diagnostics);
  state.layoutStateVersion = layout.newestStamp;
  // Our review gate, when installed here or for the user (or when it recorded cycles before).
  const gate = readGateView(realGsd, { home: userHome(), ...(process.env.GSD_HOME ? { gsdHome: process.env.GSD_HOME } : {}) });
  if (gate) {
    diagnostics.push(...gate.diagnostics);
    // Installed for the user (~/.gsd): GSD runs it here too.
    if (gate.config.file && !state.reviewHooks.includes(gate.config.name)) state.reviewHooks.push(gate.config.name);
  }
  const src: ReviewSources = { rows, hooks, databaseFile: detection.databaseFile, gate };
  if (rows) {
    const r = fromDatabase(rows, layout, src, diagnostics);
    state.milestones = r.milestones;
    state.statusFrom = r.statusFrom;
    state.readFrom = 'database';
    state.schemaVersion = rows.schemaVersion;
    state.projectRevision = rows.projectRevision;
    state.authorityEpoch = rows.authorityEpoch;
  } else {
    state.milestones = fromLayout(layout, src);
  }

  const reading = readPhase(state.milestones, (m) => !!(m.extensions.successor as { validationFile?: string } | undefined)?.validationFile);
  Object.assign(state, reading);
  markActiveAndProgress(state, reading);
  return state;
}
