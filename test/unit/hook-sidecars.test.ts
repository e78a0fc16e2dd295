// Hook state in per-unit sidecars (T01-HOOKS.md, S01-HOOKS.md, M001-HOOKS.md), and the one-time move
// of blocks an older version kept in PLAN/ROADMAP frontmatter. GSD-2 re-renders those files from its
// database (every S01-PLAN, ROADMAP and SUMMARY after nearly every tool call, every T01-PLAN of a
// slice on plan or replan), so state left in them is lost; the move must keep every other byte of
// GSD's file and lose nothing, whatever the tree holds.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { dispatchNextUnit } from './helpers/one-shot-dispatch';
import { attachHookState } from '../../src/core/hooks/engine/attach-hook-state';
import { ProjectFiles } from '../../src/core/state/project-files';
import { journalFile } from '../../src/core/files/commit-journal';
import { NodeGsdStore } from '../../src/core/files/gsd-store';
import type { BuiltinHook } from '../../src/core/hooks/loading/hook-loader';
import { UnitFileError } from '../../src/core/hooks/engine/unit-files';
import type { GSDMiddleware } from '../../src/core/hooks/engine/middleware-types';
import { parseFrontmatter } from '../../src/core/parse/frontmatter';
import { readFrontmatter } from '../../src/core/parse/gray-matter-frontmatter';
import { locateProject } from '../../src/core/state/locate-project';
import { roadmap, slicePlan, taskSummary, writeTree } from './helpers/gsd-tree';
import { fullState } from './helpers/state';

const M = '.gsd/milestones/M001';
const S = `${M}/slices/S01`;
const TASKS = `${S}/tasks`;

function builtin(name: string, middleware: GSDMiddleware): BuiltinHook {
  return { name, register: (api) => api.registerHook(name, middleware) };
}

/** A hook that only records something on T02 (so every other unit is moved by the sweep, not by a write). */
const touchT02 = builtin('tracker', async (ctx, next) => {
  ctx.store.set('M001/S01/T02', { seen: true });
  await next();
});

// The blocks an older version wrote, as YAML text and as the values they hold.
const T01_BLOCK = 'extensions:\n  review-loop:\n    history:\n      - cycle: 1\n        verdict: changes-requested\n        openIssues: 2\n        resolvedIssues: 0\n        reviewPath: milestones/M001/slices/S01/tasks/T01-CODE-REVIEW-C1.md\n    outcome:\n      cycles: 2\n      passed: true\n      completedAt: 2026-11-20T10:30:00.000Z\n  my-policy:\n    checked: [lint, types]\n';
const T01_VALUES = {
  'review-loop': {
    history: [{ cycle: 1, verdict: 'changes-requested', openIssues: 2, resolvedIssues: 0, reviewPath: 'milestones/M001/slices/S01/tasks/T01-CODE-REVIEW-C1.md' }],
    outcome: { cycles: 2, passed: true, completedAt: '2026-11-20T10:30:00.000Z' },
  },
  'my-policy': { checked: ['lint', 'types'] },
};
// GSD's own keys around ours, a comment, and a body: all of it must stay byte for byte.
const T01_HEAD = '---\nid: T01\n# estimated by the planner\nestimated_steps: 4\n';
const T01_TAIL = 'skills_used: []\n---\n# T01: Render invoice\n\nRender an invoice to PDF with pdfkit.\n\n## Verify\n- npm test\n';
const SLICE_BODY = slicePlan('S01', 'Invoice PDFs', [{ id: 'T01', title: 'Render invoice', done: true }, { id: 'T02', title: 'Attach logo' }, { id: 'T03', title: 'Page numbers' }]);
const SLICE_BLOCK = 'extensions:\n  pending-actions:\n    replannedFor:\n      - T01\n';
const ROADMAP_BODY = roadmap('M001', 'Invoicing', [{ id: 'S01', title: 'Invoice PDFs' }]).replace(/\n/g, '\r\n');
const ROADMAP_HEAD = '---\r\nowner: sam\r\n';
const ROADMAP_BLOCK = 'extensions:\r\n  my-policy:\r\n    budget: 3\r\n';

function olderProject(extra: Record<string, string> = {}): string {
  return writeTree({
    [`${M}/M001-ROADMAP.md`]: `${ROADMAP_HEAD}${ROADMAP_BLOCK}---\r\n${ROADMAP_BODY}`,
    [`${S}/S01-PLAN.md`]: `---\n${SLICE_BLOCK}---\n${SLICE_BODY}`,
    [`${TASKS}/T01-PLAN.md`]: `${T01_HEAD}${T01_BLOCK}${T01_TAIL}`,
    [`${TASKS}/T01-SUMMARY.md`]: taskSummary('T01', 'S01', 'M001', { completedAt: '2026-11-20T10:00:00Z' }),
    [`${TASKS}/T02-PLAN.md`]: '# T02: Attach logo\n',
    [`${TASKS}/T03-PLAN.md`]: '# T03: Page numbers\n',
    ...extra,
  });
}

const read = (root: string, rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');
const blocksOf = (root: string, rel: string) => (parseFrontmatter(read(root, rel), rel).data.extensions ?? {}) as Record<string, unknown>;
const t = (root: string, id: string) => fullState(root).milestones[0].slices[0].tasks.find((x) => x.id === id)!;

describe('hook-state sidecars', function () {
  this.timeout(60_000);

  it('moves every old block out of PLAN/ROADMAP once, keeping every other byte of GSD\'s files', async () => {
    const root = olderProject();
    const stateBefore = fullState(root);
    const out = await dispatchNextUnit({ root, builtins: [touchT02], apply: true });
    assert.ok(out.applied);
    // GSD's files lose exactly the `extensions` key.
    assert.equal(read(root, `${TASKS}/T01-PLAN.md`), `${T01_HEAD}${T01_TAIL}`);
    assert.equal(read(root, `${M}/M001-ROADMAP.md`), `${ROADMAP_HEAD}---\r\n${ROADMAP_BODY}`, 'CRLF kept, other key kept');
    // `extensions` was the slice plan's only key: the fences go too, giving back the file GSD wrote.
    assert.equal(read(root, `${S}/S01-PLAN.md`), SLICE_BODY);
    // The sidecars hold the same values.
    assert.deepEqual(blocksOf(root, `${TASKS}/T01-HOOKS.md`), T01_VALUES);
    assert.deepEqual(blocksOf(root, `${S}/S01-HOOKS.md`), { 'pending-actions': { replannedFor: ['T01'] } });
    assert.deepEqual(blocksOf(root, `${M}/M001-HOOKS.md`), { 'my-policy': { budget: 3 } });
    assert.deepEqual(blocksOf(root, `${TASKS}/T02-HOOKS.md`), { tracker: { seen: true } });
    assert.match(out.diagnostics.map((d) => d.message).join('\n'), /moved hook state of 3 units out of PLAN\/ROADMAP frontmatter/);
    // Every reader sees the same state as before the move.
    const after = fullState(root);
    assert.deepEqual(after.milestones[0].extensions, stateBefore.milestones[0].extensions);
    assert.deepEqual(after.milestones[0].slices[0].extensions, stateBefore.milestones[0].slices[0].extensions);
    assert.deepEqual(after.milestones[0].slices[0].tasks[0].extensions, T01_VALUES);
    // A new sidecar is what gray-matter reads too, and says what it is.
    const sidecar = read(root, `${TASKS}/T01-HOOKS.md`);
    assert.deepEqual(readFrontmatter(sidecar, 'T01-HOOKS.md').data, parseFrontmatter(sidecar, 'T01-HOOKS.md').data);
    assert.match(sidecar, /^---\n[\s\S]*\n---\n# Hook state of task M001\/S01\/T01\n\nWritten by GSD Review Loop\./);
    assert.match(sidecar, /GSD re-renders that file from its database/);
  });

  it('reads old blocks before the move, and the sidecar\'s block wins where both files have one', async () => {
    const root = olderProject({
      [`${TASKS}/T01-HOOKS.md`]: '---\nextensions:\n  review-loop:\n    outcome:\n      cycles: 3\n      passed: false\n---\n# T01 hook state\n',
    });
    assert.deepEqual(t(root, 'T01').extensions, { 'review-loop': { outcome: { cycles: 3, passed: false } }, 'my-policy': { checked: ['lint', 'types'] } });
    await dispatchNextUnit({ root, builtins: [touchT02], apply: true });
    // my-policy moved in; the sidecar's newer review-loop block stayed; the hand-written body too.
    assert.equal(read(root, `${TASKS}/T01-HOOKS.md`), '---\nextensions:\n  review-loop:\n    outcome:\n      cycles: 3\n      passed: false\n  my-policy:\n    checked:\n      - lint\n      - types\n---\n# T01 hook state\n');
    assert.equal(read(root, `${TASKS}/T01-PLAN.md`), `${T01_HEAD}${T01_TAIL}`);
    assert.deepEqual(t(root, 'T01').extensions, { 'review-loop': { outcome: { cycles: 3, passed: false } }, 'my-policy': { checked: ['lint', 'types'] } });
  });

  it('sweeps once; a block that reappears later (an old branch) is still read, and moved when its unit is written', async () => {
    const root = olderProject();
    await dispatchNextUnit({ root, builtins: [touchT02], apply: true });
    const oldT03 = `---\nextensions:\n  tracker:\n    seen: false\n---\n# T03: Page numbers\n`;
    fs.writeFileSync(path.join(root, TASKS, 'T03-PLAN.md'), oldT03);
    await dispatchNextUnit({ root, builtins: [touchT02], apply: true });
    assert.equal(read(root, `${TASKS}/T03-PLAN.md`), oldT03, 'not swept again');
    assert.deepEqual(t(root, 'T03').extensions, { tracker: { seen: false } });
    const touchT03 = builtin('tracker', async (ctx, next) => {
      assert.deepEqual(ctx.store.get('M001/S01/T03'), { seen: false });
      ctx.store.set('M001/S01/T03', undefined);
      await next();
    });
    await dispatchNextUnit({ root, builtins: [touchT03], apply: true });
    // The removal stands: the old block left the plan with it instead of coming back from there.
    assert.equal(read(root, `${TASKS}/T03-PLAN.md`), '# T03: Page numbers\n');
    assert.deepEqual(t(root, 'T03').extensions, {});
  });

  it('never moves over a file GSD re-rendered after we read it', async () => {
    const root = olderProject();
    const plan = path.join(root, TASKS, 'T01-PLAN.md');
    const rendered = '---\nestimated_steps: 4\nestimated_files: 1\nskills_used: []\n---\n\n# T01: Render invoice\n';
    let rendered1 = false;
    class GsdRendersMeanwhile extends NodeGsdStore {
      override commit(gsdDir: string, plan0: () => import('../../src/core/files/gsd-store').PlannedWrite[]) {
        return super.commit(gsdDir, () => {
          const writes = plan0();
          if (!rendered1) {
            // GSD (which never takes our lock) renders the task plan from its database right now.
            rendered1 = true;
            fs.writeFileSync(plan, rendered);
          }
          return writes;
        });
      }
    }
    await dispatchNextUnit({ root, builtins: [touchT02], apply: true, store: new GsdRendersMeanwhile() });
    assert.ok(rendered1);
    assert.equal(read(root, `${TASKS}/T01-PLAN.md`), rendered, 'GSD\'s render is kept as it wrote it');
    assert.equal(fs.existsSync(path.join(root, TASKS, 'T01-HOOKS.md')), false, 'nothing moved from a text that is no longer there');
    // The other units were moved from what they hold now.
    assert.equal(read(root, `${S}/S01-PLAN.md`), SLICE_BODY);
  });

  it('a failure between the two writes of a move loses nothing: the journal finishes it at the next start', async () => {
    const root = olderProject();
    const gsdDir = fs.realpathSync(path.join(root, '.gsd'));
    const plan = path.join(gsdDir, 'milestones', 'M001', 'slices', 'S01', 'tasks', 'T01-PLAN.md');
    // The module object itself (an `import *` namespace is read-only); every importer sees the patch.
    const nodeFs = require('node:fs') as { renameSync: typeof fs.renameSync };
    const rename = nodeFs.renameSync;
    // The process dies (here: the disk refuses) after the sidecar is written and before the plan is.
    // The plan by its name, or through its folder held open (atomic-write.ts on Linux).
    const isPlan = (to: fs.PathLike) => String(to) === plan || (path.basename(String(to)) === path.basename(plan) && fs.realpathSync(path.dirname(String(to))) === path.dirname(plan));
    nodeFs.renameSync = (from, to) => {
      if (isPlan(to)) throw Object.assign(new Error('EIO: simulated crash'), { code: 'EIO' });
      return rename(from, to);
    };
    let out;
    try {
      out = await dispatchNextUnit({ root, builtins: [touchT02], apply: true });
    } finally {
      nodeFs.renameSync = rename;
    }
    assert.match(out.diagnostics.map((d) => d.message).join('\n'), /committed; .*the next start finishes writing it/);
    assert.ok(fs.existsSync(journalFile(gsdDir)));
    // Meanwhile both files hold the block; every reader still sees it once.
    assert.deepEqual(t(root, 'T01').extensions, T01_VALUES);
    locateProject(root);
    assert.equal(fs.existsSync(journalFile(gsdDir)), false);
    assert.equal(read(root, `${TASKS}/T01-PLAN.md`), `${T01_HEAD}${T01_TAIL}`);
    assert.deepEqual(blocksOf(root, `${TASKS}/T01-HOOKS.md`), T01_VALUES);
  });

  it('a plan with unsaved changes in an editor is left for later; the hook\'s own write still commits', async () => {
    const root = olderProject();
    const gsdDir = fs.realpathSync(path.join(root, '.gsd'));
    class DirtyT01 extends NodeGsdStore {
      protected override beforeWrite(file: string): void {
        if (file === path.join(gsdDir, 'milestones', 'M001', 'slices', 'S01', 'tasks', 'T01-PLAN.md')) throw new Error('T01-PLAN.md has unsaved changes in the editor');
      }
    }
    const out = await dispatchNextUnit({ root, builtins: [touchT02], apply: true, store: new DirtyT01() });
    assert.ok(out.applied);
    assert.match(out.diagnostics.map((d) => d.message).join('\n'), /hook state in T01-PLAN\.md not moved yet: T01-PLAN\.md has unsaved changes/);
    assert.equal(read(root, `${TASKS}/T01-PLAN.md`), `${T01_HEAD}${T01_BLOCK}${T01_TAIL}`);
    assert.deepEqual(blocksOf(root, `${TASKS}/T02-HOOKS.md`), { tracker: { seen: true } });
    assert.deepEqual(t(root, 'T01').extensions, T01_VALUES);
  });

  it('a sidecar linked out of .gsd is refused: not read, not written through', async () => {
    const root = olderProject();
    const victim = path.join(fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'gsd-victim-')), 'state.md');
    const planted = '---\nextensions:\n  tracker:\n    seen: planted\n---\n';
    fs.writeFileSync(victim, planted);
    fs.symlinkSync(victim, path.join(root, TASKS, 'T02-HOOKS.md'));
    const state = fullState(root);
    assert.deepEqual(state.milestones[0].slices[0].tasks[1].extensions, {}, 'the planted state is not taken in');
    assert.ok(state.diagnostics.some((d) => d.file.endsWith('T02-HOOKS.md') && /leads outside \.gsd/.test(d.message)), JSON.stringify(state.diagnostics));
    await assert.rejects(dispatchNextUnit({ root, builtins: [touchT02], apply: true }), /leads outside \.gsd/);
    assert.equal(fs.readFileSync(victim, 'utf8'), planted);
    // Refused as a whole: nothing was moved either.
    assert.equal(read(root, `${TASKS}/T01-PLAN.md`), `${T01_HEAD}${T01_BLOCK}${T01_TAIL}`);
  });

  it('a sidecar with broken YAML is a diagnostic and is never overwritten', async () => {
    const broken = '---\nextensions:\n  tracker: {seen: [unclosed\n---\n# T02 hook state\n';
    const root = olderProject({ [`${TASKS}/T02-HOOKS.md`]: broken });
    const state = fullState(root);
    assert.ok(state.diagnostics.some((d) => d.file.endsWith('T02-HOOKS.md') && d.severity === 'error' && /not valid YAML/.test(d.message)), JSON.stringify(state.diagnostics));
    // The hook asked for T02's state: T02 blocks the decision, and nothing is written.
    const out = await dispatchNextUnit({ root, builtins: [touchT02], apply: true });
    assert.equal(out.decision, null);
    assert.equal(out.applied, false);
    assert.deepEqual(out.written, []);
    assert.equal(out.blockedBy?.unitId, 'M001/S01/T02');
    assert.match(out.blocker!, /^M001\/S01\/T02 is blocked by its hook-state file: T02-HOOKS\.md line \d+: frontmatter is not valid YAML/);
    assert.equal(read(root, `${TASKS}/T02-HOOKS.md`), broken);
    assert.equal(read(root, `${TASKS}/T01-PLAN.md`), `${T01_HEAD}${T01_BLOCK}${T01_TAIL}`, 'nothing of the commit was written');
  });

  it('a sidecar it reads but will not edit (anchors) refuses the write, the reason first and the file relative to the project', async () => {
    const linked = '---\nbase: &b {seen: false}\nextensions:\n  tracker: *b\n---\n# T02 hook state\n';
    const root = olderProject({ [`${TASKS}/T02-HOOKS.md`]: linked });
    await assert.rejects(dispatchNextUnit({ root, builtins: [touchT02], apply: true }), (error: Error) => {
      assert.match(error.message, /^the extensions block uses YAML anchors or aliases .*\(\.gsd\/milestones\/M001\/slices\/S01\/tasks\/T02-HOOKS\.md\)$/);
      assert.ok(!error.message.includes(root), error.message);
      return true;
    });
    assert.equal(read(root, `${TASKS}/T02-HOOKS.md`), linked);
  });

  it('never puts a lone sidecar into an empty tasks folder (GSD would take it for written task plans)', async () => {
    const root = writeTree({
      [`${M}/M001-ROADMAP.md`]: roadmap('M001', 'Invoicing', [{ id: 'S01', title: 'Invoice PDFs' }]),
      [`${S}/S01-PLAN.md`]: slicePlan('S01', 'Invoice PDFs', [{ id: 'T01', title: 'Render invoice' }]),
    });
    fs.mkdirSync(path.join(root, TASKS));
    await assert.rejects(dispatchNextUnit({ root, builtins: [builtin('tracker', async (ctx, next) => {
      ctx.store.set('M001/S01/T01', { seen: true });
      await next();
    })], apply: true }), UnitFileError);
    assert.deepEqual(fs.readdirSync(path.join(root, TASKS)), []);
    assert.equal(fullState(root).phase, 'planning', 'GSD\'s "task plans missing" phase is unchanged');
  });
});

describe('hook state for a state read from GSD-2\'s database', () => {
  it('reads each unit\'s sidecar into its extensions, with recorded pending actions, and ignores blocks in GSD\'s renders', () => {
    const root = olderProject({
      [`${TASKS}/T01-HOOKS.md`]: '---\nextensions:\n  review-loop:\n    outcome: { cycles: 5, passed: false }\n    pendingActions:\n      - "[major] src/pdf.ts:12: not deterministic"\n---\n',
      // Values other than the old blocks' in S01-PLAN.md ([T01]) and the roadmap (budget: 3), so the
      // test tells which file was read.
      [`${S}/S01-HOOKS.md`]: '---\nextensions:\n  pending-actions:\n    replannedFor: [T02]\n---\n',
      [`${M}/M001-HOOKS.md`]: '---\nextensions:\n  my-policy:\n    budget: 7\n---\n',
    });
    // The units as the database gives them: no hook state of their own.
    const state = fullState(root);
    for (const m of state.milestones) {
      m.extensions = {};
      for (const s of m.slices) {
        s.extensions = {};
        for (const task of s.tasks) {
          task.extensions = {};
          task.pendingActions = [];
        }
      }
    }
    state.pendingActions = [];
    attachHookState(state, new ProjectFiles(new NodeGsdStore()));
    const slice = state.milestones[0].slices[0];
    assert.deepEqual(slice.extensions, { 'pending-actions': { replannedFor: ['T02'] } });
    assert.deepEqual(slice.tasks[0].extensions, { 'review-loop': { outcome: { cycles: 5, passed: false }, pendingActions: ['[major] src/pdf.ts:12: not deterministic'] } });
    assert.deepEqual(slice.tasks[0].pendingActions.map((a) => [a.text, a.source, path.basename(a.file)]), [['[major] src/pdf.ts:12: not deterministic', 'review-loop', 'T01-HOOKS.md']]);
    assert.equal(state.pendingActions.length, 1);
    // The roadmap's old block is a render's, not read here; the milestone's sidecar is.
    assert.deepEqual(state.milestones[0].extensions, { 'my-policy': { budget: 7 } });
  });

  it('marks a task whose sidecar cannot be read, as the markdown derive does', () => {
    const root = olderProject({ [`${TASKS}/T02-HOOKS.md`]: '---\nextensions:\n  review-loop: {cycle: [2\n---\n' });
    const state = fullState(root);
    for (const task of state.milestones[0].slices[0].tasks) {
      task.extensions = {};
      delete task.hookStateUnreadable;
    }
    attachHookState(state, new ProjectFiles(new NodeGsdStore()));
    const [t01, t02] = state.milestones[0].slices[0].tasks;
    assert.equal(t01.hookStateUnreadable, undefined);
    assert.ok(t02.hookStateUnreadable?.file.endsWith('T02-HOOKS.md'));
    assert.match(t02.hookStateUnreadable!.reason, /not valid YAML/);
  });
});
