// Generates large, realistic GSD trees for the benchmark: milestones of slices of tasks with plans,
// summaries (some with pending actions), reviews, replans. Deterministic for a given size.
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface TreeShape {
  milestones: number;
  slicesPerMilestone: number;
  tasksPerSlice: number;
}

export function shapeFor(tasks: number): TreeShape {
  // About 50 tasks per slice and 10 slices per milestone, like a long-running GSD project.
  const tasksPerSlice = 50;
  const slicesPerMilestone = 10;
  return { milestones: Math.max(1, Math.round(tasks / (tasksPerSlice * slicesPerMilestone))), slicesPerMilestone, tasksPerSlice };
}

const pad = (n: number, w: number) => String(n).padStart(w, '0');

function summary(tid: string, sid: string, mid: string, minute: number, pending: boolean): string {
  const known = pending
    ? 'The retry budget is a guess.\n\nPending actions:\n- Measure the retry budget under load\n- Document the new flag in the README\n'
    : 'None.\n';
  return `---
id: ${tid}
parent: ${sid}
milestone: ${mid}
provides:
  - ${tid.toLowerCase()} behaviour
key_files:
  - src/${sid.toLowerCase()}/${tid.toLowerCase()}.ts
  - test/${sid.toLowerCase()}/${tid.toLowerCase()}.test.ts
key_decisions:
  - Keep the public API unchanged
patterns_established:
  - none
duration: 35m
verification_result: passed
completed_at: 2026-0${1 + (minute % 9)}-1${minute % 10}T1${minute % 10}:${pad(minute % 60, 2)}:00Z
blocker_discovered: false
---

# ${tid}: Implement step ${tid} of ${sid}

**Shipped ${tid} with tests; behaviour matches the plan.**

## What Happened

Implemented the change described in the task plan, then refactored the helper it needed.
The existing tests kept passing and new ones cover the edge cases named in the plan.

## Verification

\`npm test -- --grep ${tid}\` passes.

## Verification Evidence

| # | Command | Exit Code | Verdict | Duration |
|---|---------|-----------|---------|----------|
| 1 | \`npm test -- --grep ${tid}\` | 0 | ✅ pass | 3.1s |

## Deviations

None.

## Known Issues

${known}
## Files Created/Modified

- \`src/${sid.toLowerCase()}/${tid.toLowerCase()}.ts\` — implementation
- \`test/${sid.toLowerCase()}/${tid.toLowerCase()}.test.ts\` — tests
`;
}

function review(tid: string, cycle: number, approved: boolean): string {
  return `---
task: ${tid}
cycle: ${cycle}
verdict: ${approved ? 'approved' : 'changes-requested'}
---
# Code review: ${tid} (cycle ${cycle})

## Issues

- [${approved ? 'x' : ' '}] **major** \`src/a.ts:${10 + cycle}\` Error path is not tested.
- [x] **minor** typo in a log message

## Notes

Looked at the diff and the tests.
`;
}

/**
 * Writes the tree under `dir` (which must not exist). The first ~70% of milestones are complete,
 * the next one is active half-way through its slices, the rest are pending.
 */
export function generateTree(dir: string, shape: TreeShape): { files: number; tasks: number } {
  let files = 0;
  let tasks = 0;
  const write = (rel: string, text: string) => {
    const abs = path.join(dir, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, text);
    files++;
  };
  write('.gsd/PREFERENCES.md', '---\nversion: 1\ngsd_hooks:\n  enabled:\n    - name: review-loop\n      options: { max_cycles: 5 }\n    - name: pending-actions\n---\n');
  write('.gsd/PROJECT.md', '# Benchmark project\n');
  const activeM = Math.max(1, Math.floor(shape.milestones * 0.7));
  let minute = 0;
  for (let m = 1; m <= shape.milestones; m++) {
    const mid = `M${pad(m, 3)}`;
    const milestoneComplete = m < activeM;
    const isActive = m === activeM;
    const doneSlices = milestoneComplete ? shape.slicesPerMilestone : isActive ? Math.floor(shape.slicesPerMilestone / 2) : 0;
    const slices: string[] = [];
    for (let s = 1; s <= shape.slicesPerMilestone; s++) {
      const sid = `S${pad(s, 2)}`;
      slices.push(`- [${s <= doneSlices ? 'x' : ' '}] **${sid}: Slice ${s} of ${mid}** \`risk:${['high', 'medium', 'low'][s % 3]}\` \`depends:[${s > 1 ? `S${pad(s - 1, 2)}` : ''}]\`\n  > After this: slice ${s} can be demonstrated.`);
      const sliceActive = isActive && s === doneSlices + 1;
      const sliceHasPlan = milestoneComplete || (isActive && s <= doneSlices + 1) || m === activeM + 1;
      if (!sliceHasPlan) continue;
      const doneTasks = s <= doneSlices ? shape.tasksPerSlice : sliceActive ? Math.floor(shape.tasksPerSlice / 2) : milestoneComplete ? shape.tasksPerSlice : 0;
      const lines = [`# ${sid}: Slice ${s} of ${mid}`, '', `**Goal:** Deliver slice ${s}.`, `**Demo:** slice ${s} works.`, '', '## Tasks', ''];
      for (let t = 1; t <= shape.tasksPerSlice; t++) {
        const tid = `T${pad(t, 2)}`;
        tasks++;
        lines.push(`- [${t <= doneTasks ? 'x' : ' '}] **${tid}: Implement step ${t}** \`est:${15 + (t % 4) * 15}m\``);
        lines.push(`  - Files: \`src/${sid.toLowerCase()}/${tid.toLowerCase()}.ts\``);
        lines.push(`  - Verify: \`npm test -- --grep ${tid}\``);
        const base = `.gsd/milestones/${mid}/slices/${sid}/tasks/${tid}`;
        write(`${base}-PLAN.md`, `---\nid: ${tid}\n---\n# ${tid}: Implement step ${t}\n\nSteps, constraints and the verification command for this task.\n`);
        if (t <= doneTasks) {
          minute++;
          write(`${base}-SUMMARY.md`, summary(tid, sid, mid, minute, t % 17 === 0));
          if (t % 5 === 0) {
            write(`${base}-CODE-REVIEW-C1.md`, review(tid, 1, false));
            write(`${base}-CODE-REVIEW.md`, review(tid, 2, true));
          }
        }
      }
      write(`.gsd/milestones/${mid}/slices/${sid}/${sid}-PLAN.md`, lines.join('\n') + '\n');
      if (s <= doneSlices) write(`.gsd/milestones/${mid}/slices/${sid}/${sid}-SUMMARY.md`, `---\nid: ${sid}\nparent: ${mid}\n---\n# ${sid}: done\n`);
    }
    write(`.gsd/milestones/${mid}/${mid}-ROADMAP.md`, `# ${mid}: Milestone ${m}\n\n**Vision:** Milestone ${m} ships.\n\n## Slices\n\n${slices.join('\n')}\n`);
    write(`.gsd/milestones/${mid}/${mid}-CONTEXT.md`, `---\ndepends_on:\n${m > 1 ? `  - M${pad(m - 1, 3)}\n` : '  []\n'}---\n# ${mid}: Milestone ${m}\n`);
    if (milestoneComplete) {
      write(`.gsd/milestones/${mid}/${mid}-VALIDATION.md`, '---\nverdict: pass\n---\n# Validation\n');
      write(`.gsd/milestones/${mid}/${mid}-SUMMARY.md`, `---\nstatus: complete\n---\n# ${mid}: Milestone ${m}\n`);
    }
  }
  return { files, tasks };
}
