// The pure parts of `npm run conformance`: comparing a derived state with GSD-2's record, and
// switching our two designed differences off in a tree's PREFERENCES.md without losing its keys.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { blockerIds, compareState, formatDisagreement } from '../../scripts/conformance/compare';
import { DESIGNED_DIFFERENCES, preferencesWithHooksDisabled } from '../../scripts/conformance/preferences';
import { readHookConfig } from '../../src/core/hooks/engine/hook-config';
import { NodeGsdStore } from '../../src/core/files/gsd-store';
import { ProjectFiles } from '../../src/core/state/project-files';
import { writeTree } from './helpers/gsd-tree';

const view = (phase: string, m: string | null, s: string | null, t: string | null, blockers: string[] = []) => ({
  phase,
  activeMilestone: m ? { id: m } : null,
  activeSlice: s ? { id: s } : null,
  activeTask: t ? { id: t } : null,
  blockers,
});

describe('conformance: comparing with what GSD-2 recorded', () => {
  it('agrees when phase, units and the ids each blocker names match, whatever the wording', () => {
    const gsd2 = { phase: 'blocked', milestone: null, slice: null, task: null, blockers: ['M003 is waiting on unmet deps: M002-abc123'] };
    assert.deepEqual(compareState(view('blocked', null, null, null, ['M003 is waiting on unmet dependencies: M002-abc123']), gsd2), []);
  });

  it('names each field that differs, ours against GSD-2', () => {
    const gsd2 = { phase: 'replanning-slice', milestone: 'M001', slice: 'S01', task: 'T01', blockers: ['Triage replan trigger detected — slice replan required'] };
    const found = compareState(view('executing', 'M001', 'S01', 'T02'), gsd2);
    assert.deepEqual(found.map((d) => d.field), ['phase', 'task', 'blockers']);
    assert.equal(formatDisagreement('walkthrough > Phase 13', found[0]), '✗ walkthrough > Phase 13: phase: ours executing vs GSD-2 replanning-slice');
    assert.equal(found[1].ours, 'T02');
  });

  it('tells blockers apart by the units they name', () => {
    assert.deepEqual(blockerIds('M001 is waiting on unmet deps: M002, M003-x7k2pq'), ['M001', 'M002', 'M003-x7k2pq']);
    assert.deepEqual(blockerIds('Task T01 discovered a blocker requiring slice replan'), ['T01']);
    const gsd2 = { phase: 'blocked', milestone: null, slice: null, task: null, blockers: ['M002 is waiting on unmet deps: M001'] };
    assert.equal(compareState(view('blocked', null, null, null, ['M002 is waiting on unmet dependencies: M004']), gsd2).length, 1);
  });
});

describe('conformance: PREFERENCES.md with the designed differences off', () => {
  const disabledBy = (text: string) => {
    const root = writeTree({ '.gsd/PREFERENCES.md': text });
    return readHookConfig(new ProjectFiles(new NodeGsdStore()), path.join(root, '.gsd'), DESIGNED_DIFFERENCES);
  };

  it('writes a new file that our hook config reads as both hooks off', () => {
    const config = disabledBy(preferencesWithHooksDisabled(null));
    assert.deepEqual(config.hooks, []);
    assert.deepEqual(config.diagnostics, []);
  });

  it("merges into GSD's own preferences: its keys, an enabled list and the body stay", () => {
    const text = preferencesWithHooksDisabled('---\nplanning_depth: deep\ngsd_hooks:\n  enabled:\n    - name: review-loop\n      options: { max_cycles: 3 }\n---\n# Project preferences\n');
    const fm = parseYaml(/^---\n([\s\S]*?)---\n/.exec(text)![1]);
    assert.equal(fm.planning_depth, 'deep');
    assert.deepEqual(fm.gsd_hooks.enabled, [{ name: 'review-loop', options: { max_cycles: 3 } }]);
    assert.ok(text.endsWith('---\n# Project preferences\n'));
    assert.deepEqual(disabledBy(text).hooks, []);
  });

  it('refuses frontmatter it cannot merge into rather than overwrite it', () => {
    assert.throws(() => preferencesWithHooksDisabled('---\nplanning_depth: [deep\n---\n'), /not valid YAML/);
    assert.throws(() => preferencesWithHooksDisabled('---\ngsd_hooks: all-off\n---\n'), /not a mapping/);
  });
});
