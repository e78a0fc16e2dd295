// Notifications outlive their moment (they wait in the bell): a button clicked there for a unit that
// is no longer in flight says so, and never acts on the unit in flight by then.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { GsdExtensionApi } from '../../../src/extension';
import { notificationsDuring } from '../helpers/notifications';
import { freshSample } from '../helpers/sample';
import { clickNotificationButton } from '../helpers/workbench';
import { waitFor } from '../helpers/wait-for';
import { skipBecause } from '../../shared/skip-because';

const T02 = 'M002-k7q2xz/S02/T02';

describe('notifications clicked after their unit is done', () => {
  let api: GsdExtensionApi;
  const config = () => vscode.workspace.getConfiguration('gsdReviewLoop');
  const handle = () => api.workspace.list()[0];

  before(async () => {
    api = await freshSample();
    await config().update('dispatch.target', 'editor', vscode.ConfigurationTarget.Workspace);
  });

  after(async () => {
    await vscode.commands.executeCommand('notifications.hideList');
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await config().update('dispatch.target', undefined, vscode.ConfigurationTarget.Workspace);
  });

  it("a Complete button about the fix, clicked once the review is in flight, says the fix is done and leaves the review in flight", async function () {
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('gsdReviewLoop.nextUnit');
    // A second Next Unit: the notification about the fix in flight, with Complete / Cancel Unit / Open Prompt.
    const offered = await notificationsDuring(() => vscode.commands.executeCommand('gsdReviewLoop.nextUnit'));
    assert.match(offered.messages[0], new RegExp(`^GSD: fix-task ${T02} is in flight`));
    // The fix is completed another way (the status bar's tooltip, the panel's ✓), then the review dispatched.
    await vscode.commands.executeCommand('gsdReviewLoop.completeUnit');
    await vscode.commands.executeCommand('gsdReviewLoop.nextUnit');
    const review = handle().engine.currentUnit()!;
    assert.deepEqual([review.unitType, review.unitId], ['review-task', T02]);
    // Later, from the bell: the old notification's Complete.
    await vscode.commands.executeCommand('notifications.showList');
    const clicked = await notificationsDuring(async (shown) => {
      const view = await clickNotificationButton('stale-complete-button', `fix-task ${T02} is in flight`, 'Complete');
      if (!view) return false;
      // The click runs the command in this host a moment later: it says what it did.
      await waitFor('the clicked Complete to say what it did', () => shown.length > 0);
      return true;
    });
    if (!clicked.result) return skipBecause(this, 'no click in the page: the test runner does not drive this workbench (GSD_WORKBENCH_BRIDGE unset)');
    assert.equal(handle().engine.currentUnit()?.dispatchedAt, review.dispatchedAt, 'the review is still in flight');
    assert.deepEqual(clicked.messages.length, 1, clicked.messages.join('\n'));
    assert.match(clicked.messages[0], new RegExp(`^GSD: fix-task ${T02} is no longer in flight \\(it was completed .+\\); nothing was done\\.$`));
  });
});
