// The answer cache of the small hook entry (dist/hook.js): the same answer as the full bridge while
// nothing it rests on changes, the full bridge again as soon as something does.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { hookLogFile } from '../../src/core/agent-hooks/hook-log';
import { buildCli } from './helpers/cli';
import { codeReview, roadmap, slicePlan, taskSummary, writeTree } from './helpers/gsd-tree';

const S = '.gsd/milestones/M001/slices/S01';
const TASKS = `${S}/tasks`;

/** Every file and folder of the tree a minute old: the cache does not trust a time within a second. */
function age(root: string): void {
  const old = new Date(Date.now() - 60_000);
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      fs.utimesSync(p, old, old);
    }
  };
  walk(root);
  fs.utimesSync(root, old, old);
}

function project(): string {
  const root = writeTree({
    '.gsd/PREFERENCES.md': '---\ngsd_hooks:\n  enabled:\n    - name: review-loop\n---\n',
    '.gsd/milestones/M001/M001-ROADMAP.md': roadmap('M001', 'Invoicing', [{ id: 'S01', title: 'Invoice PDFs' }]),
    [`${S}/S01-PLAN.md`]: slicePlan('S01', 'Invoice PDFs', [{ id: 'T01', title: 'Render invoice' }, { id: 'T02', title: 'Attach logo' }]),
    [`${TASKS}/T01-PLAN.md`]: '# T01: Render invoice\n',
    [`${TASKS}/T02-PLAN.md`]: '# T02: Attach logo\n',
  });
  age(root);
  return root;
}

describe('answer cache of the hook entry', function () {
  this.timeout(120_000);
  let hookJs: string;
  before(async () => {
    hookJs = path.join(path.dirname(await buildCli()), 'hook.js');
  });
  const run = (root: string, payload: Record<string, unknown>) => {
    const r = spawnSync(process.execPath, [hookJs, '--host', 'vscode'], { cwd: root, input: JSON.stringify({ timestamp: new Date().toISOString(), session_id: 's1', cwd: root, ...payload }), encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout;
  };
  const lastLog = (root: string) => JSON.parse(fs.readFileSync(hookLogFile(fs.realpathSync(path.join(root, '.gsd'))), 'utf8').trim().split('\n').pop()!) as { event: string; notes?: string[] };
  const fromCache = (root: string) => (lastLog(root).notes ?? []).some((n) => /answered from the cache/.test(n));

  it('gives the same Stop and SessionStart answers from the cache while nothing changed', () => {
    const root = project();
    run(root, { hook_event_name: 'Stop', stop_hook_active: false });
    age(root); // our runtime folder, made by the first run, is a minute old too
    const stop1 = run(root, { hook_event_name: 'Stop', stop_hook_active: false });
    assert.equal(fromCache(root), false);
    const stop2 = run(root, { hook_event_name: 'Stop', stop_hook_active: false });
    assert.equal(fromCache(root), true);
    assert.equal(stop2, stop1);
    assert.equal(stop1, '', 'no task is finished: nothing to review');
    const ctx1 = run(root, { hook_event_name: 'SessionStart', source: 'new' });
    const ctx2 = run(root, { hook_event_name: 'SessionStart', source: 'new' });
    assert.equal(fromCache(root), true);
    assert.equal(ctx2, ctx1);
    assert.match(JSON.parse(ctx1).hookSpecificOutput.additionalContext, /Next unit: execute-task M001\/S01\/T01/);
  });

  it('answers any tool call that edits nothing from one cached answer; an edit is looked at by the bridge', () => {
    const root = project();
    const read = (file: string) => run(root, { hook_event_name: 'PreToolUse', tool_name: 'read_file', tool_input: { filePath: path.join(root, file), startLine: 1, endLine: 40 }, tool_use_id: file });
    read('src/a.ts');
    age(root);
    read('src/b.ts');
    assert.equal(read('src/c.ts'), '');
    assert.equal(fromCache(root), true);
    run(root, { hook_event_name: 'PreToolUse', tool_name: 'create_file', tool_input: { filePath: path.join(root, '.gsd/runtime/gsd-review-loop/dispatch.json'), content: '{}' }, tool_use_id: 'w' });
    assert.equal(fromCache(root), false);
  });

  it('runs the full bridge again once a file it rests on changes (a task finished, a review written)', () => {
    const root = project();
    run(root, { hook_event_name: 'Stop', stop_hook_active: false });
    age(root);
    run(root, { hook_event_name: 'Stop', stop_hook_active: false });
    run(root, { hook_event_name: 'Stop', stop_hook_active: false });
    assert.equal(fromCache(root), true);
    // The agent finishes T01: a SUMMARY appears (and the plan is ticked, in place, same size or not).
    fs.writeFileSync(path.join(root, TASKS, 'T01-SUMMARY.md'), taskSummary('T01', 'S01', 'M001', { completedAt: '2026-11-20T10:00:00Z' }));
    const plan = path.join(root, S, 'S01-PLAN.md');
    fs.writeFileSync(plan, fs.readFileSync(plan, 'utf8').replace('- [ ] **T01', '- [x] **T01'));
    const block = JSON.parse(run(root, { hook_event_name: 'Stop', stop_hook_active: false }));
    assert.equal(fromCache(root), false);
    assert.match(block.hookSpecificOutput.reason, /review cycle 1 of 5 for T01/);
    // A review of this cycle is written: the next Stop must see it, not a cached answer.
    fs.writeFileSync(path.join(root, TASKS, 'T01-CODE-REVIEW.md'), codeReview('T01', 1, 'approved', []));
    const after = run(root, { hook_event_name: 'Stop', stop_hook_active: true });
    assert.equal(fromCache(root), false);
    assert.doesNotMatch(after, /review cycle 1 of 5/);
  });

  it('never answers from the cache what changed the project (a dispatch) or what a file changed a moment ago rests on', () => {
    const root = project();
    fs.writeFileSync(path.join(root, TASKS, 'T01-SUMMARY.md'), taskSummary('T01', 'S01', 'M001', { completedAt: '2026-11-20T10:00:00Z' }));
    // Just written: not trusted yet, so the next identical call runs the bridge again.
    run(root, { hook_event_name: 'SessionStart', source: 'new' });
    run(root, { hook_event_name: 'SessionStart', source: 'new' });
    assert.equal(fromCache(root), false);
    age(root);
    const first = run(root, { hook_event_name: 'Stop', stop_hook_active: false });
    assert.match(first, /review cycle 1 of 5 for T01/);
    run(root, { hook_event_name: 'Stop', stop_hook_active: false });
    assert.equal(fromCache(root), false, 'the Stop that dispatched a review is never replayed');
  });
});
