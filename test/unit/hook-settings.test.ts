// Hook settings that survive GSD's preference saves. GSD-2 warns about `gsd_hooks` in PREFERENCES.md
// as an unknown key and drops it when the user saves preferences through GSD (it writes back only
// the keys it knows); a YAML error there makes GSD drop all its preferences. Our own file,
// `.gsd/gsd-review-loop.yaml`, is read first; `gsd_hooks` stays readable and is copied there once.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { dispatchNextUnit } from './helpers/one-shot-dispatch';
import { NodeGsdStore } from '../../src/core/files/gsd-store';
import { readHookConfig } from '../../src/core/hooks/engine/hook-config';
import type { BuiltinHook } from '../../src/core/hooks/loading/hook-loader';
import { ProjectFiles } from '../../src/core/state/project-files';
import { BUILTIN_HOOKS } from '../../src/builtin-hooks';
import { roadmap, slicePlan, taskSummary, writeTree } from './helpers/gsd-tree';

const M = '.gsd/milestones/M001';
const TASKS = `${M}/slices/S01/tasks`;
const BUILTINS = ['review-loop', 'pending-actions'];

const PREFS_WITH_HOOKS = '---\nversion: 1\nskill_discovery: suggest\ngsd_hooks:\n  enabled:\n    - name: review-loop\n      priority: 10\n      options:\n        max_cycles: 2\n    - name: pending-actions\n---\n\n# GSD preferences\n';
// What GSD writes when the user saves preferences through it: its own keys, `gsd_hooks` gone.
const PREFS_AFTER_GSD_SAVE = '---\nversion: 1\nskill_discovery: suggest\n---\n\n# GSD preferences\n';

function project(files: Record<string, string>): string {
  return writeTree({
    [`${M}/M001-ROADMAP.md`]: roadmap('M001', 'Invoicing', [{ id: 'S01', title: 'Invoice PDFs' }]),
    [`${M}/slices/S01/S01-PLAN.md`]: slicePlan('S01', 'Invoice PDFs', [{ id: 'T01', title: 'Render invoice', done: true }, { id: 'T02', title: 'Attach logo' }]),
    [`${TASKS}/T01-PLAN.md`]: '# T01: Render invoice\n',
    [`${TASKS}/T01-SUMMARY.md`]: taskSummary('T01', 'S01', 'M001', { completedAt: '2026-11-20T10:00:00Z' }),
    ...files,
  });
}

function config(root: string) {
  return readHookConfig(new ProjectFiles(new NodeGsdStore()), fs.realpathSync(path.join(root, '.gsd')), BUILTINS);
}

describe('hook settings in .gsd/gsd-review-loop.yaml', function () {
  this.timeout(60_000);

  it('gsd_hooks keeps working alone, and the first commit copies it into our file, which survives GSD\'s preferences save', async () => {
    const root = project({ '.gsd/PREFERENCES.md': PREFS_WITH_HOOKS });
    assert.deepEqual(config(root).hooks.map((h) => [h.name, h.priority, h.options]), [['review-loop', 10, { max_cycles: 2 }], ['pending-actions', undefined, {}]]);
    const out = await dispatchNextUnit({ root, builtins: BUILTIN_HOOKS as BuiltinHook[], apply: true });
    assert.equal(out.decision?.unitType, 'review-task');
    assert.match(out.diagnostics.map((d) => d.message).join('\n'), /copied gsd_hooks from PREFERENCES\.md into gsd-review-loop\.yaml/);
    const ours = fs.readFileSync(path.join(root, '.gsd', 'gsd-review-loop.yaml'), 'utf8');
    assert.match(ours, /^# GSD Review Loop/);
    assert.equal(fs.readFileSync(path.join(root, '.gsd', 'PREFERENCES.md'), 'utf8'), PREFS_WITH_HOOKS, 'PREFERENCES.md is GSD\'s: not written');
    // The user saves preferences through GSD.
    fs.writeFileSync(path.join(root, '.gsd', 'PREFERENCES.md'), PREFS_AFTER_GSD_SAVE);
    const after = config(root);
    assert.deepEqual(after.hooks.map((h) => [h.name, h.priority, h.options]), [['review-loop', 10, { max_cycles: 2 }], ['pending-actions', undefined, {}]]);
    assert.deepEqual(after.diagnostics, []);
  });

  it('our file is read first; a different gsd_hooks is reported, not used', () => {
    const root = project({
      '.gsd/PREFERENCES.md': PREFS_WITH_HOOKS,
      '.gsd/gsd-review-loop.yaml': 'enabled:\n  - name: pending-actions\ndisabled: [review-loop]\n',
    });
    const c = config(root);
    assert.deepEqual(c.hooks.map((h) => h.name), ['pending-actions']);
    assert.ok(c.diagnostics.some((d) => d.file.endsWith('PREFERENCES.md') && /differs from gsd-review-loop\.yaml, which is the one used/.test(d.message)), JSON.stringify(c.diagnostics));
  });

  it('the same settings in both files say nothing', () => {
    const root = project({
      '.gsd/PREFERENCES.md': PREFS_WITH_HOOKS,
      '.gsd/gsd-review-loop.yaml': '# ours\nenabled:\n  - name: review-loop\n    priority: 10\n    options: { max_cycles: 2 }\n  - pending-actions\n',
    });
    assert.deepEqual(config(root).diagnostics, []);
  });

  it('a broken settings file is a diagnostic, gsd_hooks is used meanwhile, and the file is never overwritten', async () => {
    const broken = 'enabled:\n  - name: review-loop\n    options: { max_cycles: [2\n';
    const root = project({ '.gsd/PREFERENCES.md': PREFS_WITH_HOOKS, '.gsd/gsd-review-loop.yaml': broken });
    const c = config(root);
    assert.deepEqual(c.hooks.map((h) => [h.name, h.options]), [['review-loop', { max_cycles: 2 }], ['pending-actions', {}]]);
    assert.ok(c.diagnostics.some((d) => d.file.endsWith('gsd-review-loop.yaml') && d.severity === 'error' && /not valid YAML/.test(d.message)), JSON.stringify(c.diagnostics));
    assert.ok(c.diagnostics.some((d) => /not used until it is fixed; gsd_hooks in PREFERENCES\.md in the meantime/.test(d.message)));
    await dispatchNextUnit({ root, builtins: BUILTIN_HOOKS as BuiltinHook[], apply: true });
    assert.equal(fs.readFileSync(path.join(root, '.gsd', 'gsd-review-loop.yaml'), 'utf8'), broken);
  });

  it('PREFERENCES.md that GSD could not read either is not copied', async () => {
    const prefs = '---\nversion: 1\ngsd_hooks:\n  enabled:\n    - name: review-loop\n  bad: [\n---\n';
    const root = project({ '.gsd/PREFERENCES.md': prefs });
    await dispatchNextUnit({ root, builtins: BUILTIN_HOOKS as BuiltinHook[], apply: true });
    assert.equal(fs.existsSync(path.join(root, '.gsd', 'gsd-review-loop.yaml')), false);
  });
});
