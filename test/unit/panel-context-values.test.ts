// package.json's `viewItem` clauses against the context values the panel's nodes produce. The item
// actions each kind of node must offer are the README's ("Item actions: Compare with Previous Cycle,
// Open Review, Reveal in Explorer"): compare needs an earlier cycle, Open Review a review, Reveal a
// file (milestones, slices, tasks, review cycles, pending actions).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { MilestoneStatus, SliceStatus, TaskStatus } from '../../src/core/model/types';
import { COMMANDS, REVIEW_PANEL_VIEW } from '../../src/vscode/contributions/contribution-ids';
import * as ctx from '../../src/vscode/panel/context-values';

const root = path.resolve(__dirname, '../..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

const TASK: readonly TaskStatus[] = ['done', 'active', 'pending'];
const SLICE: readonly SliceStatus[] = ['done', 'active', 'pending', 'blocked', 'replanning'];
const MILESTONE: readonly MilestoneStatus[] = ['complete', 'active', 'pending', 'parked'];
// A status added to the model without being listed here fails to compile.
type Unlisted = Exclude<TaskStatus, (typeof TASK)[number]> | Exclude<SliceStatus, (typeof SLICE)[number]> | Exclude<MilestoneStatus, (typeof MILESTONE)[number]>;
const allListed: [Unlisted] extends [never] ? true : false = true;

const { compareWithPreviousCycle: compare, openReview: open, revealInExplorer: reveal } = COMMANDS;

/** Every context value a node can have, with the item actions it must show. */
function expected(): Map<string, string[]> {
  const out = new Map<string, string[]>([
    [ctx.PROJECT_CONTEXT, []],
    [ctx.PENDING_GROUP_CONTEXT, []],
    [ctx.HOOK_EVENTS_CONTEXT, []],
    [ctx.ACTIVE_REVIEW_CONTEXT, []],
    [ctx.PENDING_ACTION_CONTEXT, [reveal]],
    [ctx.reviewCycleContext(false), [open, reveal]],
    [ctx.reviewCycleContext(true), [compare, open, reveal]],
    // A successor project (read-only): its header, and GSD's own verdicts read from its database (no file).
    [ctx.SUCCESSOR_PROJECT_CONTEXT, []],
    [ctx.GSD_REVIEW_CONTEXT, []],
  ]);
  for (const s of MILESTONE) out.set(ctx.milestoneContext(s), [reveal]);
  for (const s of SLICE) out.set(ctx.sliceContext(s), [reveal]);
  for (const s of TASK) {
    out.set(ctx.taskContext(s, false), [reveal]);
    out.set(ctx.taskContext(s, true), [open, reveal]);
    // A successor project's task: its files can be shown, nothing of ours acts on it.
    out.set(ctx.taskContext(s, false, true), [reveal]);
  }
  return out;
}

/** A `when` clause of the forms package.json uses: terms joined by `&&`, each `view == …`, `viewItem == …` or `viewItem =~ /…/`. */
function matches(when: string, view: string, viewItem: string): boolean {
  return when.split('&&').every((raw) => {
    const term = raw.trim();
    let m = /^view == (\S+)$/.exec(term);
    if (m) return m[1] === view;
    m = /^viewItem == (\S+)$/.exec(term);
    if (m) return m[1] === viewItem;
    m = /^viewItem =~ \/(.*)\/([a-z]*)$/.exec(term);
    if (m) return new RegExp(m[1], m[2]).test(viewItem);
    throw new Error(`cannot evaluate the when clause term "${term}"`);
  });
}

const itemMenus = pkg.contributes.menus['view/item/context'] as { command: string; when: string; group: string }[];

describe('panel context values against package.json', () => {
  it('lists every status of the model', () => {
    // tsx runs this file without type-checking, so the check above only bites under tsc: read the
    // model's unions from its source as well, so a status added there fails here too.
    assert.equal(allListed, true);
    const model = fs.readFileSync(path.join(root, 'src/core/model/types.ts'), 'utf8');
    const union = (name: string) => {
      const m = new RegExp(`export type ${name} =([^;]+);`).exec(model);
      assert.ok(m, `${name} not found in the model`);
      return [...m[1].matchAll(/'([^']+)'/g)].map((x) => x[1]).sort();
    };
    assert.deepEqual([...TASK].sort(), union('TaskStatus'));
    assert.deepEqual([...SLICE].sort(), union('SliceStatus'));
    assert.deepEqual([...MILESTONE].sort(), union('MilestoneStatus'));
  });

  it('shows each kind of node exactly the item actions it has, in the context menu', () => {
    for (const [value, actions] of expected()) {
      const shown = [...new Set(itemMenus.filter((m) => !m.group.startsWith('inline') && matches(m.when, REVIEW_PANEL_VIEW, value)).map((m) => m.command))];
      assert.deepEqual(shown.sort(), [...actions].sort(), value);
    }
  });

  it('puts Compare inline on review cycles with an earlier cycle only', () => {
    for (const [value] of expected()) {
      const inline = itemMenus.filter((m) => m.group.startsWith('inline') && matches(m.when, REVIEW_PANEL_VIEW, value)).map((m) => m.command);
      assert.deepEqual(inline, value === ctx.reviewCycleContext(true) ? [compare] : [], value);
    }
  });

  it('has no item menu entry that no node can match, and none for another view', () => {
    const values = [...expected().keys()];
    for (const m of itemMenus) {
      assert.ok(values.some((v) => matches(m.when, REVIEW_PANEL_VIEW, v)), `${m.command} (${m.when}) matches no node`);
      assert.ok(!values.some((v) => matches(m.when, 'workbench.explorer.fileView', v)), `${m.command} shows outside the panel`);
    }
  });

  it('nodes set their context value only through these constants', () => {
    const dir = path.join(root, 'src/vscode/panel');
    let assignments = 0;
    for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
      for (const m of fs.readFileSync(path.join(dir, file), 'utf8').matchAll(/contextValue\s*=\s*([^;]+);/g)) {
        assignments++;
        const parts = m[1].split(/ [?:] /).slice(m[1].includes(' ? ') ? 1 : 0);
        for (const part of parts) assert.match(part, /^(?:[A-Z_]+_CONTEXT|(?:milestone|slice|task|reviewCycle)Context\(.*\))$/, `${file}: contextValue = ${m[1]}`);
      }
    }
    // Project, pending group, pending action, hook events, milestone, slice, task, review cycle (twice:
    // ours, and GSD's own verdict on a successor project), active review; the successor header's is set
    // in successor-panel.ts from SUCCESSOR_PROJECT_CONTEXT.
    assert.equal(assignments, 10);
  });
});
