// The status bar through the review loop: after each step (next, complete, next, complete …) the bar
// names the unit a click dispatches, read from the extension and from the page the workbench draws,
// and a click dispatches exactly that unit.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { GsdExtensionApi } from '../../../src/extension';
import type { NextUnitResult } from '../../../src/vscode/dispatch/next-unit-command';
import { answeringModals, notificationsDuring } from '../helpers/notifications';
import { freshSample } from '../helpers/sample';
import { waitFor } from '../helpers/wait-for';
import { clickStatusBar, readStatusBar, checkSeen } from '../helpers/workbench';
import type { DispatchRecord } from '../../../src/core/dispatch/dispatch-record';

const M2 = 'M002-k7q2xz';
const T02 = `${M2}/S02/T02`;

describe('The status bar through the review loop', () => {
  let api: GsdExtensionApi;
  let tasks: string;
  const config = () => vscode.workspace.getConfiguration('gsdReviewLoop');
  const handle = () => api.workspace.list()[0];
  /** Everything the bar's text was, in order, while `run` ran and until `settled` holds. */
  const barTexts: string[] = [];
  let sampling: NodeJS.Timeout | undefined;
  const sample = () => {
    const t = api.statusBar.text;
    if (barTexts.at(-1) !== t) barTexts.push(t);
  };

  /** The bar as the extension holds it and as the page draws it; `drawn` is what the page shows. */
  const expectBar = async (shot: string, text: string, drawn: string) => {
    await waitFor(() => `the status bar to say "${text}" (it says "${api.statusBar.text}")`, () => api.statusBar.text === text);
    const view = await readStatusBar(shot, drawn);
    checkSeen(view, (v) => assert.deepEqual(v.statusBar, [drawn], `the status bar the workbench draws (${v.screenshot})`));
    // A screen reader gets words, not the tooltip's markdown.
    assert.doesNotMatch(api.statusBar.label, /[`*]/, api.statusBar.label);
    checkSeen(view, (v) => assert.deepEqual(v.statusBarAria, [api.statusBar.label], 'the aria-label the page gives the item'));
  };

  /**
   * Clicks the bar in the page (without the runner's browser: runs the item's command, as a click
   * does) and returns the unit that click dispatched.
   */
  const click = async (shot: string): Promise<DispatchRecord> => {
    const clicked = await clickStatusBar(shot);
    if (!clicked) await vscode.commands.executeCommand<NextUnitResult>(api.statusBar.command!.command, ...(api.statusBar.command!.arguments ?? []));
    let flying: DispatchRecord | null = null;
    await waitFor('the click to dispatch a unit', () => (flying = handle().engine.currentUnit()) !== null);
    return flying!;
  };

  const shownUnit = () => {
    const arg = api.statusBar.command?.arguments?.[0] as { unitType: string; unitId: string } | undefined;
    return arg && [arg.unitType, arg.unitId];
  };

  before(async () => {
    api = await freshSample();
    tasks = path.join(handle().project.gsdDir, 'milestones', M2, 'slices', 'S02', 'tasks');
    await config().update('dispatch.target', 'editor', vscode.ConfigurationTarget.Workspace);
    sampling = setInterval(sample, 20);
  });

  after(async () => {
    clearInterval(sampling);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await config().update('dispatch.target', undefined, vscode.ConfigurationTarget.Workspace);
  });

  it('names the fix of T02 before anything happened, and a click dispatches it', async () => {
    await expectBar('loop-0-start', '$(play-circle) GSD: fix-task T02', 'GSD: fix-task T02');
    assert.match(api.statusBar.tooltip, /\*\*Next unit:\*\* `fix-task` M002-k7q2xz\/S02\/T02 \(decided by review-loop\)/);
    assert.equal(api.statusBar.label, `GSD: next unit fix-task ${T02}, decided by review-loop. Activate to dispatch it.`);
    const shown = shownUnit();
    const d = await click('loop-0-click');
    assert.deepEqual([d.unitType, d.unitId, d.data?.cycle], ['fix-task', T02, 2]);
    assert.deepEqual(shown, ['fix-task', T02], 'the click carried the unit the bar named');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await expectBar('loop-1-next', '$(watch) GSD: fix-task T02 · now', 'GSD: fix-task T02 · now');
  });

  it('after Complete Unit on the fix, names the review of T02 (never the fix again), and a click dispatches it', async () => {
    barTexts.length = 0;
    const done = await answeringModals(undefined, () => vscode.commands.executeCommand('gsdReviewLoop.completeUnit'));
    assert.deepEqual(done.messages, [`GSD: fix-task ${T02} completed.`]);
    await expectBar('loop-2-complete', '$(play-circle) GSD: review-task T02', 'GSD: review-task T02');
    sample();
    // From the completion on, the bar said the unit in flight, that it was working, or the review: never the fix as next.
    assert.ok(!barTexts.includes('$(play-circle) GSD: fix-task T02'), `the bar named the finished fix as next: ${JSON.stringify(barTexts)}`);
    assert.match(api.statusBar.tooltip, /\*\*Next unit:\*\* `review-task` M002-k7q2xz\/S02\/T02/);
    const shown = shownUnit();
    const d = await click('loop-2-click');
    assert.deepEqual([d.unitType, d.unitId, d.data?.cycle], ['review-task', T02, 2]);
    assert.deepEqual(shown, ['review-task', T02], 'the click carried the unit the bar named');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await expectBar('loop-3-next', '$(watch) GSD: review-task T02 · now', 'GSD: review-task T02 · now');
  });

  it('after the reviewer writes cycle 2 with an issue still open (which completes the review), names the next fix, and a click dispatches it', async () => {
    barTexts.length = 0;
    fs.writeFileSync(
      path.join(tasks, 'T02-CODE-REVIEW.md'),
      '---\ntask: T02\ncycle: 2\nverdict: changes-requested\n---\n# Code review: T02 (cycle 2)\n\n## Issues\n\n- [x] **major** `src/rules-file.ts:57` fsync before rename\n- [ ] **minor** `src/commands/rule.ts:22` `rule remove` of a missing pattern still exits 0.\n\n## Notes\n\nOne left.\n',
    );
    await waitFor('the review to complete the unit', () => handle().engine.currentUnit() === null);
    await expectBar('loop-4-complete', '$(play-circle) GSD: fix-task T02', 'GSD: fix-task T02');
    sample();
    assert.ok(!barTexts.includes('$(play-circle) GSD: review-task T02'), `the bar named the finished review as next: ${JSON.stringify(barTexts)}`);
    const shown = shownUnit();
    const d = await click('loop-4-click');
    assert.deepEqual([d.unitType, d.unitId, d.data?.cycle], ['fix-task', T02, 3]);
    assert.deepEqual(shown, ['fix-task', T02], 'the click carried the unit the bar named');
    assert.match(d.prompt, /still exits 0/);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await expectBar('loop-5-next', '$(watch) GSD: fix-task T02 · now', 'GSD: fix-task T02 · now');
  });

  it('after Complete Unit on the second fix, names the third review', async () => {
    barTexts.length = 0;
    await answeringModals(undefined, () => vscode.commands.executeCommand('gsdReviewLoop.completeUnit'));
    await expectBar('loop-6-complete', '$(play-circle) GSD: review-task T02', 'GSD: review-task T02');
    sample();
    assert.ok(!barTexts.includes('$(play-circle) GSD: fix-task T02'), `the bar named the finished fix as next: ${JSON.stringify(barTexts)}`);
    assert.deepEqual(shownUnit(), ['review-task', T02]);
    assert.equal(handle().engine.currentUnit(), null);
  });

  it('a click carrying a unit the project has moved on from dispatches nothing, and says what is next now', async () => {
    const stale = { unitType: 'fix-task', unitId: T02 };
    const { result, messages } = await notificationsDuring(() => vscode.commands.executeCommand<NextUnitResult>('gsdReviewLoop.nextUnit', stale));
    assert.equal(result!.target, null);
    assert.equal(handle().engine.currentUnit(), null, 'nothing in flight');
    assert.deepEqual(messages, [`GSD: nothing dispatched: the project changed since the status bar showed fix-task ${T02}. The next unit is now review-task ${T02}.`]);
    assert.equal(api.statusBar.text, '$(play-circle) GSD: review-task T02');
  });
});
