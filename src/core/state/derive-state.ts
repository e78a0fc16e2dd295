// GSD's default rules: which milestone, slice and task are active and what phase the project is in.
// One set of rules for both ways of reading: the full index (every slice, for the panel) and the
// lazy path (only what the active unit needs, for the CLI's `next` and `hook`).
import { firstEligibleSlice, type SliceOrder } from '../model/slice-eligibility';
import type { RoadmapSlice } from '../parse/roadmap';
import * as path from 'node:path';
import { deriveMilestonePart, roadmapComplete, type MilestoneDepth, type MilestonePart } from './derive-milestone';
import { deriveSlicePart, type SlicePart } from './derive-slice';
import type { DirIndex } from '../files/gsd-layout';
import { isGhost, listMilestones } from './milestone-folders';
import { preferencesFile, type ProjectFiles } from './project-files';
import { parsePreferences } from '../parse/preferences';
import type {
  Diagnostic,
  GSDState,
  MilestoneEntry,
  SliceEntry,
  SliceStatus,
  TaskEntry,
  PhaseDecision,
} from '../model/types';

/** Where derived parts come from: memoized by the StateIndex, built fresh by the lazy path. */
export interface PartSource {
  files: ProjectFiles;
  milestone(id: string, dir: string, depth: MilestoneDepth): MilestonePart;
  slice(milestoneId: string, sliceId: string, dir: string): SlicePart;
  /** Drop any part made from a folder's files (they were read from a folder that moved meanwhile). */
  forget(dir: string): void;
}

export interface DeriveOptions {
  /** Read only what the active unit needs (roadmaps, milestone files, then the active slice). */
  lazy?: boolean;
}

export interface ProjectLocation {
  root: string;
  gsdDir: string;
}

export function freshPartSource(files: ProjectFiles): PartSource {
  return {
    files,
    milestone: (id, dir, depth) => deriveMilestonePart(files, id, dir, depth),
    slice: (milestoneId, sliceId, dir) => deriveSlicePart(files, milestoneId, sliceId, dir),
    // Nothing kept but the files, which ProjectFiles forgets itself.
    forget: () => {},
  };
}

function sliceEntry(rs: NonNullable<MilestonePart['roadmap']>['slices'][number], part: SlicePart | null, status: SliceStatus): SliceEntry {
  const entry: SliceEntry = {
    id: rs.id,
    title: rs.title || part?.title || rs.id,
    status,
    done: rs.done,
    depends: rs.depends,
    replannedTasks: part?.replannedTasks ?? [],
    planLoaded: part !== null,
    tasks: part?.tasks ?? [],
    progress: part?.progress ?? { done: 0, total: 0 },
    extensions: part?.extensions ?? {},
  };
  if (rs.risk) entry.risk = rs.risk;
  if (rs.demo) entry.demo = rs.demo;
  if (part) {
    entry.dir = part.dir;
    if (part.planFile && part.planFound) entry.planFile = part.planFile;
    if (part.summaryFile) entry.summaryFile = part.summaryFile;
    if (part.replanFile) entry.replanFile = part.replanFile;
    if (part.replanTriggerFile) entry.replanTriggerFile = part.replanTriggerFile;
    if (part.continueFile) entry.continueFile = part.continueFile;
  }
  return entry;
}

/** A task's blocker is answered when a REPLAN names it (or names no task at all). */
export function replanRecordedFor(part: Pick<SlicePart, 'replannedTasks' | 'replanCoversAll'>, taskId: string): boolean {
  return part.replanCoversAll || part.replannedTasks.includes(taskId);
}

type Decision = PhaseDecision;

export function deriveState(project: ProjectLocation, source: PartSource, options: DeriveOptions = {}): GSDState {
  const { value, movedFolders } = source.files.readingInFolderBatches(() => deriveOnce(project, source, options));
  if (movedFolders.length === 0) return value;
  // A folder moved while its files were read through it: what came from it is read again, by name
  // as it is now (outside any batch), and the state is made again from that.
  for (const dir of movedFolders) source.forget(dir);
  return deriveOnce(project, source, options);
}

/**
 * The reads of a full derive, a slice per step (the milestones' own files first, in one), so a
 * long-lived reader (the panel's StateIndex) can fill its parts a little at a time and leave its
 * thread free between steps; the full derive after them then finds every part made.
 */
export function* readingSteps(project: ProjectLocation, source: PartSource): Generator<void, void, void> {
  const reader = new SliceReader(source, []);
  const milestones = readMilestones(project.gsdDir, source, false, []);
  yield;
  for (const p of milestones) {
    for (const rs of p.roadmap?.slices ?? []) {
      reader.load(p, rs.id);
      yield;
    }
  }
}

function deriveOnce(project: ProjectLocation, source: PartSource, options: DeriveOptions): GSDState {
  const { files } = source;
  const diagnostics: Diagnostic[] = [];
  const prefs = preferencesFile(files, project.gsdDir);
  if (prefs) diagnostics.push(...files.parse(prefs, parsePreferences).diagnostics);

  const parts = readMilestones(project.gsdDir, source, !!options.lazy, diagnostics);
  const { statuses, active } = pickActiveMilestone(parts, source);
  for (const p of parts) diagnostics.push(...p.diagnostics);
  const slices = new SliceReader(source, diagnostics);
  const decision = decide(parts, active, statuses, (p, sliceId) => slices.load(p, sliceId));

  const pendingActions: GSDState['pendingActions'] = [];
  const milestones = parts.map((p) => milestoneEntry(p, active === p, statuses, decision, slices, !!options.lazy, pendingActions, diagnostics));
  return {
    root: project.root,
    gsdDir: project.gsdDir,
    activeMilestone: decision.activeMilestone,
    activeSlice: decision.activeSlice,
    activeTask: decision.activeTask,
    phase: decision.phase,
    blockers: decision.blockers,
    nextAction: decision.nextAction,
    replanTrigger: decision.replanTrigger,
    milestones,
    progress: progressOf(milestones, decision),
    pendingActions,
    extensions: {},
    diagnostics,
  };
}

/**
 * Every milestone folder GSD counts: on the lazy path only its summary and validation (the status
 * rules read more where they need it), all of it otherwise.
 */
function readMilestones(gsdDir: string, source: PartSource, lazy: boolean, diagnostics: Diagnostic[]): MilestonePart[] {
  const { files } = source;
  const depth: MilestoneDepth = lazy ? 'status' : 'all';
  const parts: MilestonePart[] = [];
  for (const r of listMilestones(files, gsdDir, diagnostics)) {
    const p = source.milestone(r.id, r.dir, depth);
    if (!p.parked && !p.summaryTerminal && !p.roadmap && isGhost(files, gsdDir, p)) {
      diagnostics.push(...p.diagnostics);
      diagnostics.push({ file: p.dir, severity: 'info', message: `milestone folder ${path.basename(p.dir)} has no CONTEXT, ROADMAP or SUMMARY; GSD skips it` });
      continue;
    }
    parts.push(p);
  }
  return parts;
}

/**
 * The milestone registry and the active milestone, by GSD's rules: the first milestone not complete
 * (a SUMMARY that does not report failure) whose dependencies are complete; dependencies are checked
 * only while its slices are unfinished, and a validation verdict of needs-attention parks a milestone
 * whose slices are all done. A milestone the rules need whole (its roadmap, its dependencies) is
 * read in full, in place in `parts`: every open one up to the active one, and after it only one
 * whose validation verdict could make it complete. The others after it are pending whatever their
 * roadmap says, so the lazy path leaves it unread (on 10,000 tasks, 1.9 ms of `next --json`).
 */
function pickActiveMilestone(parts: MilestonePart[], source: PartSource): { statuses: Map<string, MilestoneEntry['status']>; active: MilestonePart | null } {
  const completeIds = new Set(parts.filter((p) => !p.parked && p.summaryTerminal).map((p) => p.id));
  const statuses = new Map<string, MilestoneEntry['status']>();
  let active: MilestonePart | null = null;
  const depsUnmet = (p: MilestonePart) => p.dependsOn.some((d) => !completeIds.has(d));
  const verdictMayComplete = (p: MilestonePart) => p.validationVerdict !== null && p.validationVerdict !== 'needs-remediation';
  for (let i = 0; i < parts.length; i++) {
    if (parts[i].depth !== 'all' && !parts[i].parked && !parts[i].summaryTerminal && (!active || verdictMayComplete(parts[i]))) {
      parts[i] = source.milestone(parts[i].id, parts[i].dir, 'all');
    }
    const p = parts[i];
    let status: MilestoneEntry['status'];
    const slicesDone = p.roadmap !== null && roadmapComplete(p.roadmap);
    if (p.parked) status = 'parked';
    else if (slicesDone && p.validationVerdict === 'needs-attention') status = 'parked';
    else if (p.summaryTerminal) status = 'complete';
    else if (active) status = slicesDone && verdictMayComplete(p) ? 'complete' : 'pending';
    else if (!slicesDone && depsUnmet(p)) status = 'pending';
    else status = 'active';
    statuses.set(p.id, status);
    if (status === 'active') active = p;
  }
  return { statuses, active };
}

/** Reads a milestone's slice folders through the part source, keeping their diagnostics. */
class SliceReader {
  constructor(
    private readonly source: PartSource,
    private readonly diagnostics: Diagnostic[],
  ) {}

  slicesDir(p: MilestonePart): DirIndex | null {
    const sub = this.source.files.dir(p.dir)?.subdir('slices');
    return sub ? this.source.files.dir(sub) : null;
  }

  load(p: MilestonePart, sliceId: string): SlicePart | null {
    const dir = this.slicesDir(p)?.subdir(sliceId);
    if (!dir) return null;
    const part = this.source.slice(p.id, sliceId, dir);
    this.diagnostics.push(...part.diagnostics);
    return part;
  }
}

/** One milestone of the registry: every roadmap slice, its plan read for all (full) or the active one (lazy). */
function milestoneEntry(
  p: MilestonePart,
  isActiveMilestone: boolean,
  statuses: Map<string, MilestoneEntry['status']>,
  decision: ReturnType<typeof decide>,
  reader: SliceReader,
  lazy: boolean,
  pendingActions: GSDState['pendingActions'],
  diagnostics: Diagnostic[],
): MilestoneEntry {
  const roadmapSlices = p.roadmap?.slices ?? [];
  const doneIds = new Set(roadmapSlices.filter((s) => s.done).map((s) => s.id));
  const slices: SliceEntry[] = [];
  for (const rs of roadmapSlices) {
    const isActiveSlice = isActiveMilestone && decision.activeSlice?.id === rs.id;
    const part = isActiveSlice ? decision.activeSlicePart : lazy ? null : reader.load(p, rs.id);
    let status: SliceStatus;
    if (rs.done) status = 'done';
    else if (isActiveSlice) status = decision.phase === 'replanning-slice' ? 'replanning' : 'active';
    else if (rs.depends.some((d) => !doneIds.has(d))) status = 'blocked';
    else status = 'pending';
    const entry = sliceEntry(rs, part, status);
    if (isActiveSlice && decision.activeTask) {
      const activeId = decision.activeTask.id;
      entry.tasks = entry.tasks.map((t): TaskEntry => (t.id === activeId ? { ...t, status: 'active' } : t));
    }
    if (part) pendingActions.push(...part.pendingActions);
    slices.push(entry);
  }
  if (!lazy) {
    const dir = reader.slicesDir(p);
    for (const e of dir?.entries ?? []) {
      if (e.isDirectory && /^S\d+/i.test(e.name) && !roadmapSlices.some((s) => e.name.toUpperCase().startsWith(s.id))) {
        diagnostics.push({ file: path.join(dir!.dir, e.name), severity: 'info', message: `slice folder ${e.name} is not listed in ${p.id}-ROADMAP.md` });
      }
    }
  }
  const entry: MilestoneEntry = {
    id: p.id,
    title: p.title,
    status: statuses.get(p.id) ?? 'pending',
    dir: p.dir,
    dependsOn: p.dependsOn,
    roadmapLoaded: p.depth === 'all',
    slices,
    progress: { done: slices.filter((s) => s.done).length, total: slices.length },
    extensions: p.extensions,
  };
  if (p.roadmapFile) entry.roadmapFile = p.roadmapFile;
  if (p.summaryFile) entry.summaryFile = p.summaryFile;
  return entry;
}

/** Milestones done of all; slices of the active milestone; tasks of the active slice. */
function progressOf(milestones: MilestoneEntry[], decision: Pick<GSDState, 'activeMilestone' | 'activeSlice'>): GSDState['progress'] {
  const activeEntry = milestones.find((m) => m.id === decision.activeMilestone?.id);
  const activeSliceEntry = activeEntry?.slices.find((s) => s.id === decision.activeSlice?.id);
  return {
    milestones: { done: milestones.filter((m) => m.status === 'complete').length, total: milestones.length },
    slices: activeEntry ? activeEntry.progress : { done: 0, total: 0 },
    tasks: activeSliceEntry ? activeSliceEntry.progress : { done: 0, total: 0 },
  };
}

type ActiveDecision = Decision & { activeSlicePart: SlicePart | null };

/** What every decision on an active slice says besides its phase and next action. */
type SliceDecisionBase = Omit<ActiveDecision, 'phase' | 'nextAction'> & { activeSlice: { id: string; title: string } };

const NO_ACTIVE_UNITS = { activeSlice: null, activeTask: null, blockers: [] as string[], replanTrigger: null, activeSlicePart: null };

/** No milestone is active: waiting on dependencies, everything parked, nothing yet, or all done. */
function decideWithoutActiveMilestone(parts: MilestonePart[], statuses: Map<string, MilestoneEntry['status']>): ActiveDecision {
  const none = NO_ACTIVE_UNITS;
  const pending = parts.filter((p) => statuses.get(p.id) === 'pending');
  if (pending.length > 0) {
    return {
      ...none,
      phase: 'blocked',
      activeMilestone: null,
      blockers: pending.map((p) => `${p.id} is waiting on unmet dependencies: ${p.dependsOn.join(', ') || '(none listed)'}`),
      nextAction: 'Resolve milestone dependencies before proceeding.',
    };
  }
  // Whatever is not complete is parked (by a PARKED file or a needs-attention verdict): nothing to
  // run, but not complete either.
  const parked = parts.filter((p) => statuses.get(p.id) === 'parked');
  if (parked.length > 0) {
    return { ...none, phase: 'pre-planning', activeMilestone: null, nextAction: `All remaining milestones are parked (${parked.map((p) => p.id).join(', ')}). Unpark one or create a new milestone.` };
  }
  if (parts.length === 0) {
    return { ...none, phase: 'pre-planning', activeMilestone: null, nextAction: 'No milestones yet. Start one with GSD.' };
  }
  return { ...none, phase: 'complete', activeMilestone: null, nextAction: 'All milestones complete.' };
}

/** The active milestone before any slice runs: no roadmap, no slices, or every slice done; null when a slice is to run. */
function decideMilestone(active: MilestonePart): ActiveDecision | null {
  const none = NO_ACTIVE_UNITS;
  const activeMilestone = { id: active.id, title: active.title };
  const roadmap = active.roadmap;
  if (!roadmap) {
    return active.draftOnly
      ? { ...none, phase: 'needs-discussion', activeMilestone, nextAction: `Discuss the draft context of ${active.id}.` }
      : { ...none, phase: 'pre-planning', activeMilestone, nextAction: `Plan milestone ${active.id}.` };
  }
  if (roadmap.slices.length === 0) {
    return { ...none, phase: 'pre-planning', activeMilestone, nextAction: `Milestone ${active.id} has a roadmap without slices. Plan its slices.` };
  }
  if (roadmap.slices.every((s) => s.done)) {
    if (active.validationVerdict === null) {
      return { ...none, phase: 'validating-milestone', activeMilestone, nextAction: `Validate milestone ${active.id} before completion.` };
    }
    if (active.validationVerdict === 'needs-remediation') {
      return {
        ...none,
        phase: 'blocked',
        activeMilestone,
        blockers: [`Validation of ${active.id} says needs-remediation but every slice is done. Add remediation slices.`],
        nextAction: `Resolve the remediation of ${active.id}.`,
      };
    }
    return { ...none, phase: 'completing-milestone', activeMilestone, nextAction: `All slices of ${active.id} are done. Write the milestone summary.` };
  }
  return null;
}

/** The active slice: plan it, summarize it, replan it, or execute its first open task. */
function decideSlice(base: SliceDecisionBase, part: SlicePart): ActiveDecision {
  const rs = base.activeSlice;
  const open = part.tasks.find((t) => !t.done);
  if (part.tasks.length === 0) {
    return { ...base, phase: 'planning', nextAction: `Slice ${rs.id} has a plan without tasks. Add tasks to the plan.` };
  }
  if (!open) {
    return { ...base, phase: 'summarizing', nextAction: `All tasks of ${rs.id} are done. Write the slice summary and complete the slice.` };
  }
  const activeTask = { id: open.id, title: open.title };
  if (part.tasksDirEmpty) {
    return { ...base, phase: 'planning', nextAction: `Task plans are missing for ${rs.id}. Run plan-slice to write them.` };
  }
  const blocker = part.tasks.find((t) => t.done && t.blockerDiscovered && !replanRecordedFor(part, t.id));
  if (blocker) {
    return {
      ...base,
      activeTask,
      phase: 'replanning-slice',
      blockers: [`Task ${blocker.id} discovered a blocker that needs a slice replan.`],
      replanTrigger: { taskId: blocker.id, reason: 'blocker' },
      nextAction: `Replan slice ${rs.id}: ${blocker.id} reported blocker_discovered.`,
    };
  }
  // GSD's triage writes S01-REPLAN-TRIGGER.md; it asks for a replan until a REPLAN exists, and only
  // when no finished task reported a blocker (that replan, or its answer, comes first).
  if (part.replanTriggerFile && !part.replanFile && !part.tasks.some((t) => t.done && t.blockerDiscovered)) {
    return {
      ...base,
      activeTask,
      phase: 'replanning-slice',
      blockers: ['Triage left a replan trigger: the slice must be replanned before work continues.'],
      replanTrigger: { taskId: open.id, reason: 'triage' },
      nextAction: `Replan slice ${rs.id}: triage asked for it in ${path.basename(part.replanTriggerFile)}.`,
    };
  }
  const resume = part.continueFile ? ` Resume from ${path.basename(part.continueFile)} first.` : '';
  return { ...base, activeTask, phase: 'executing', nextAction: `Execute ${open.id}: ${open.title} in slice ${rs.id}.${resume}` };
}

function decide(
  parts: MilestonePart[],
  active: MilestonePart | null,
  statuses: Map<string, MilestoneEntry['status']>,
  loadSlice: (p: MilestonePart, sliceId: string) => SlicePart | null,
): ActiveDecision {
  if (!active) return decideWithoutActiveMilestone(parts, statuses);
  const milestone = decideMilestone(active);
  if (milestone) return milestone;
  const activeMilestone = { id: active.id, title: active.title };
  const rs = firstEligibleSlice(active.roadmap!.slices, ROADMAP_SLICE_ORDER);
  if (!rs) {
    return { ...NO_ACTIVE_UNITS, phase: 'blocked', activeMilestone, blockers: ['No slice is eligible: check the depends:[…] of the roadmap.'], nextAction: 'Resolve slice dependencies.' };
  }
  const activeSlice = { id: rs.id, title: rs.title };
  const part = loadSlice(active, rs.id);
  const base: SliceDecisionBase = { activeMilestone, activeSlice, activeTask: null, blockers: [], replanTrigger: null, activeSlicePart: part };
  if (!part || !part.planFound) {
    return { ...base, phase: 'planning', nextAction: `Plan slice ${rs.id} (${rs.title}).` };
  }
  return decideSlice(base, part);
}

const ROADMAP_SLICE_ORDER: SliceOrder<RoadmapSlice> = { id: (s) => s.id, closed: (s) => s.done, depends: (s) => s.depends };

export class NoProjectError extends Error {
  constructor(readonly start: string) {
    super(`no .gsd folder at or above ${start}`);
  }
}
