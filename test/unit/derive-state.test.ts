import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { deriveState, freshPartSource } from '../../src/core/state/derive-state';
import { NodeGsdStore } from '../../src/core/files/gsd-store';
import { locateProject } from '../../src/core/state/locate-project';
import { ProjectFiles } from '../../src/core/state/project-files';
import { decisionOf, fullState, lazyState } from './helpers/state';
import { copyFixture, copySample, writeTree } from './helpers/gsd-tree';
import { scenarios } from './helpers/scenarios';

const roots = new Map<string, string>();
function scenario(name: string): string {
  let root = roots.get(name);
  if (!root) {
    root = writeTree(scenarios[name]);
    roots.set(name, root);
  }
  return root;
}

describe('deriveState: GSD default rules', () => {
  const expect: Record<string, Partial<{ phase: string; milestone: string | null; slice: string | null; task: string | null }>> = {
    'no milestones': { phase: 'pre-planning', milestone: null },
    'milestone without roadmap': { phase: 'pre-planning', milestone: 'M001', slice: null },
    'draft context only': { phase: 'needs-discussion', milestone: 'M001' },
    'roadmap without slices': { phase: 'pre-planning', milestone: 'M001' },
    'slice without plan': { phase: 'planning', slice: 'S01', task: null },
    'executing second task': { phase: 'executing', slice: 'S01', task: 'T02' },
    'summary counts as done though unchecked': { phase: 'executing', task: 'T02' },
    'all tasks done': { phase: 'summarizing', slice: 'S01', task: null },
    'blocker without replan': { phase: 'replanning-slice', task: 'T03' },
    'blocker with a replan for another task': { phase: 'replanning-slice', task: 'T03' },
    'blocker answered by its replan': { phase: 'executing', task: 'T02' },
    'all slices done, not validated': { phase: 'validating-milestone', milestone: 'M001' },
    'validated, no summary': { phase: 'completing-milestone', milestone: 'M001' },
    'everything complete': { phase: 'complete', milestone: null },
    'milestone waits for its dependency': { phase: 'blocked', milestone: null },
    'slice dependencies unmet': { phase: 'blocked', milestone: 'M001', slice: null },
    'suffixed milestone id and review history': { phase: 'executing', milestone: 'M001-x7k2pq', task: 'T02' },
    'broken inputs': { phase: 'executing', task: 'T03' },
  };
  for (const [name, want] of Object.entries(expect)) {
    it(`${name} → ${want.phase}`, () => {
      const s = fullState(scenario(name));
      assert.equal(s.phase, want.phase);
      if ('milestone' in want) assert.equal(s.activeMilestone?.id ?? null, want.milestone);
      if ('slice' in want) assert.equal(s.activeSlice?.id ?? null, want.slice);
      if ('task' in want) assert.equal(s.activeTask?.id ?? null, want.task);
    });
  }

  it('names the blocker task that asked for the replan, per task', () => {
    assert.deepEqual(fullState(scenario('blocker without replan')).replanTrigger, { taskId: 'T02', reason: 'blocker' });
    // T01's blocker was answered by the REPLAN; T02's was not.
    assert.deepEqual(fullState(scenario('blocker with a replan for another task')).replanTrigger, { taskId: 'T02', reason: 'blocker' });
  });

  it('marks statuses in the registry: done, active, blocked by dependencies, pending', () => {
    const s = fullState(scenario('executing second task'));
    const slices = s.milestones[0].slices;
    assert.deepEqual(slices.map((x) => [x.id, x.status]), [['S01', 'active'], ['S02', 'blocked']]);
    assert.deepEqual(slices[0].tasks.map((t) => [t.id, t.status]), [['T01', 'done'], ['T02', 'active'], ['T03', 'pending']]);
    assert.deepEqual(s.progress.tasks, { done: 1, total: 3 });
    assert.equal(fullState(scenario('blocker without replan')).milestones[0].slices[0].status, 'replanning');
  });

  it('reads review history from per-cycle snapshots and the live review', () => {
    const s = fullState(scenario('suffixed milestone id and review history'));
    const t01 = s.milestones[0].slices[0].tasks[0];
    assert.deepEqual(t01.reviews.map((r) => [r.cycle, r.verdict, r.openIssues.length, r.resolvedIssues.length, r.passed, r.snapshot]), [
      [1, 'changes-requested', 1, 0, false, true],
      [2, 'approved', 0, 1, true, false],
    ]);
    assert.equal(t01.reviews[0].openIssues[0].location, 'src/vat.ts:12');
  });

  it('collects every open pending action with its file and line', () => {
    const s = fullState(scenario('suffixed milestone id and review history'));
    assert.equal(s.pendingActions.length, 1);
    const a = s.pendingActions[0];
    assert.deepEqual([a.text, a.milestoneId, a.sliceId, a.taskId], ['Cache the template', 'M001-x7k2pq', 'S01', 'T01']);
    assert.equal(fs.readFileSync(a.file, 'utf8').split('\n')[a.line - 1], '- Cache the template');
  });

  it('never throws on broken input: each bad file is a diagnostic and the rest still derives', () => {
    const root = scenario('broken inputs');
    const s = fullState(root);
    const byFile = (suffix: string) => s.diagnostics.filter((d) => d.file.endsWith(suffix)).map((d) => d.message).join(' | ');
    assert.match(byFile('PREFERENCES.md'), /not valid YAML/);
    assert.match(byFile('T01-SUMMARY.md'), /not valid YAML/);
    assert.match(byFile('T01-CODE-REVIEW.md'), /binary/);
    assert.match(byFile('T03-PLAN.md'), /too large/);
    assert.match(byFile('T09-SUMMARY.md'), /not a task of S01-PLAN.md/);
    // The empty summary still marks T02 done, and T01's body still yields its pending action.
    const tasks = s.milestones[0].slices[0].tasks;
    assert.deepEqual(tasks.map((t) => t.status), ['done', 'done', 'active']);
    assert.deepEqual(s.pendingActions.map((a) => a.text), ['still read from the body']);
    for (const d of s.diagnostics) assert.ok(path.isAbsolute(d.file) && d.message.length > 0);
  });

  it('reports a summary whose id and parent do not match where it is filed', () => {
    const s = fullState(scenario('summary filed under the wrong task'));
    const messages = s.diagnostics.map((d) => d.message);
    assert.ok(messages.some((m) => /says id T02 but is filed under task T01/.test(m)));
    assert.ok(messages.some((m) => /parent S03 but sits in slice S01/.test(m)));
  });

  it('reads legacy descriptive folder and file names in a CRLF project', () => {
    const s = fullState(copyFixture('legacy-flight-sim'));
    assert.equal(s.activeMilestone?.id, 'M001');
    assert.equal(s.activeSlice?.id, 'S02');
    assert.equal(s.activeTask?.id, 'T01');
    const s01 = s.milestones[0].slices[0];
    assert.deepEqual(s01.tasks.map((t) => t.done), [true, true]);
    assert.deepEqual(s.pendingActions.map((a) => [a.text, a.line]), [['Tune the stall angle for the glider', 16]]);
    const s02 = s.milestones[0].slices[1];
    assert.ok(s02.tasks[2].planFile?.endsWith('T03-INSTALL-PACKAGES-PLAN.md'));
    assert.deepEqual(s02.tasks.map((t) => [t.id, t.status]), [['T01', 'active'], ['T02', 'pending'], ['T03', 'pending']]);
    assert.deepEqual(s.diagnostics, []);
  });

  it('follows a symlinked .gsd to its real folder', () => {
    const real = writeTree(scenarios['executing second task']);
    const project = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-link-'));
    fs.symlinkSync(path.join(real, '.gsd'), path.join(project, '.gsd'));
    const located = locateProject(path.join(project))!;
    assert.equal(located.symlinked, true);
    assert.equal(located.gsdDir, fs.realpathSync(path.join(real, '.gsd')));
    assert.equal(fullState(project).activeTask?.id, 'T02');
  });

  it('derives the bundled sample project', () => {
    const s = fullState(copySample());
    assert.equal(s.phase, 'executing');
    assert.equal(s.activeMilestone?.id, 'M002-k7q2xz');
    assert.equal(s.activeTask?.id, 'T03');
    assert.deepEqual(s.milestones.map((m) => m.status), ['complete', 'active', 'pending']);
    const t01 = s.milestones[1].slices[1].tasks[0];
    assert.deepEqual(t01.reviews.map((r) => r.cycle), [1, 2, 3]);
    assert.equal(s.pendingActions.length, 2);
    assert.deepEqual(s.diagnostics, []);
  });
});

describe('lazy and full reading agree', () => {
  const all = [...Object.keys(scenarios).map((n) => ({ name: n, root: () => scenario(n) })),
    { name: 'legacy-flight-sim fixture', root: () => copyFixture('legacy-flight-sim') },
    { name: 'sample project', root: copySample }];
  for (const { name, root } of all) {
    it(`same decision on "${name}"`, () => {
      const r = root();
      const lazy = lazyState(r).state;
      assert.deepEqual(decisionOf(lazy), decisionOf(fullState(r)));
    });
  }

  it('the lazy path reads what the status rules need, then the active milestone and slice only', () => {
    const files = new ProjectFiles(new NodeGsdStore());
    files.readPaths = [];
    const project = locateProject(copySample())!;
    const lazy = deriveState(project, freshPartSource(files), { lazy: true });
    const activeSliceDir = path.join(project.gsdDir, 'milestones', 'M002-k7q2xz', 'slices', 'S02') + path.sep;
    const inSlices = files.readPaths.filter((p) => p.includes(`${path.sep}slices${path.sep}`));
    assert.ok(inSlices.length > 0);
    for (const p of inSlices) assert.ok(p.startsWith(activeSliceDir), `lazy path read ${p}`);
    // The complete milestone M001 is known from its summary alone; S01 of the active one is not read.
    assert.ok(!files.readPaths.some((p) => p.endsWith('M001-ROADMAP.md')));
    assert.deepEqual(lazy.milestones[0].slices, []);
    assert.equal(lazy.milestones[1].slices[0].planLoaded, false);
  });
});
