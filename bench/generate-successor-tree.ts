// A large project of GSD's successor (@opengsd/gsd-pi 1.x) as its renderer lays it out, for the
// gate's bench: `.gsd/phases/NN-slug/` per milestone with its roadmap and context, a slice plan
// `NN-MM-PLAN.md` per slice (the `<tasks>` checkbox block), a summary `S01-T01-SUMMARY.md` per
// finished task (the shapes of test/unit/helpers/successor-project.ts, from gsd-pi's
// markdown-renderer.ts and workflow-projections.ts), our gate in PREFERENCES.md, GSD's
// hook-state.json with the gate running on the active task, and earlier cycles recorded for it.
// Deterministic for a given size; 50 tasks a slice, 10 slices a milestone, as the markdown tree.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { addGateEntry } from '../src/core/successor-gate/preferences-entry';
import { flatRoadmap, flatSlicePlan, flatTaskSummary, stamp } from '../test/unit/helpers/successor-project';

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

export interface SuccessorTree {
  files: number;
  tasks: number;
  /** The task under review: `M007/S05/T26`. */
  activeUnit: string;
}

export function generateSuccessorTree(root: string, tasks: number): SuccessorTree {
  const tasksPerSlice = 50;
  const slicesPerMilestone = 10;
  const milestones = Math.max(1, Math.round(tasks / (tasksPerSlice * slicesPerMilestone)));
  // Two thirds of the way through: earlier milestones done, the active one half done.
  const activeM = Math.max(1, Math.ceil((milestones * 2) / 3));
  const activeS = Math.ceil(slicesPerMilestone / 2);
  const activeT = Math.ceil(tasksPerSlice / 2);
  let files = 0;
  const write = (rel: string, text: string) => {
    const file = path.join(root, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    files++;
  };
  const prefs = ['---', 'version: 1', 'git:', '  isolation: none', 'post_unit_hooks: []', 'pre_dispatch_hooks: []', '---', '', '# GSD Skill Preferences', ''].join('\n');
  write('.gsd/PREFERENCES.md', addGateEntry(prefs));
  for (let m = 1; m <= milestones; m++) {
    const mid = `M${pad(m, 3)}`;
    const dir = `.gsd/phases/${pad(m)}-milestone-${m}`;
    const slices = Array.from({ length: slicesPerMilestone }, (_, i) => ({ id: `S${pad(i + 1)}`, title: `Slice ${i + 1} of ${mid}`, done: m < activeM || (m === activeM && i + 1 < activeS) }));
    write(`${dir}/${pad(m)}-ROADMAP.md`, flatRoadmap(mid, `Milestone ${m}`, slices, stamp(m * 100, 1)));
    write(`${dir}/${pad(m)}-CONTEXT.md`, `# ${mid}: Milestone ${m}\n\nWhat this milestone is for.\n`);
    if (m > activeM) continue;
    for (let s = 1; s <= slicesPerMilestone; s++) {
      if (m === activeM && s > activeS) break;
      const sid = `S${pad(s)}`;
      const doneTasks = m < activeM || s < activeS ? tasksPerSlice : activeT;
      const planTasks = Array.from({ length: tasksPerSlice }, (_, i) => ({ id: `T${pad(i + 1)}`, title: `Step ${i + 1} of ${sid}`, done: i + 1 <= doneTasks }));
      write(`${dir}/${pad(m)}-${pad(s)}-PLAN.md`, flatSlicePlan(mid, sid, `Slice ${s} of ${mid}`, planTasks, stamp(m * 100 + s, 1)));
      for (let t = 1; t <= doneTasks; t++) {
        const tid = `T${pad(t)}`;
        const known = t % 7 === 0 ? 'Pending actions:\n- Measure the retry budget under load' : 'None.';
        write(`${dir}/${sid}-${tid}-SUMMARY.md`, flatTaskSummary(mid, sid, tid, `Step ${t} of ${sid}`, known, `2026-0${1 + (t % 9)}-1${t % 10}T10:${pad(t % 60)}:00Z`));
      }
      if (m < activeM || s < activeS) write(`${dir}/${pad(m)}-${pad(s)}-SUMMARY.md`, `---\nid: ${sid}\n---\n# ${sid}: Slice ${s} of ${mid}\n\nDone.\n`);
    }
  }
  const activeUnit = `M${pad(activeM, 3)}/S${pad(activeS)}/T${pad(activeT)}`;
  const key = `gsd-review-loop/execute-task/${activeUnit}`;
  write('.gsd/hook-state.json', JSON.stringify({ cycleCounts: { [key]: 2 }, redispatchedGateKeys: [], activeHook: { hookName: 'gsd-review-loop', triggerUnitType: 'execute-task', triggerUnitId: activeUnit, cycle: 2, pendingRetry: false, completionOperationId: 'op-bench' }, hookQueue: [], retryPending: false, retryTrigger: null, savedAt: '2026-11-28T10:00:00.000Z' }, null, 2));
  // Cycle 1 recorded, as `gate --done` leaves it.
  write(`.gsd/gsd-review-loop/gate/${activeUnit}/CODE-REVIEW-C1.md`, ['---', `task: T${pad(activeT)}`, 'cycle: 1', 'verdict: needs-rework', '---', `# Code review: ${activeUnit} (cycle 1)`, '', '## Issues', '- [ ] **major** `src/retry.ts:12` The retry loop never gives up.', '- [ ] **minor** `src/retry.ts:3` Unused import.', ''].join('\n'));
  return { files, tasks: milestones * slicesPerMilestone * tasksPerSlice, activeUnit };
}
