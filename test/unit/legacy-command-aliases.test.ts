// The hidden `gsd.*` aliases of our renamed commands. VS Code throws when a command id is registered
// twice (CommandsRegistry), so an alias may exist only while nobody else registers or contributes it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { contributedCommands, legacyAliases } from '../../src/vscode/contributions/legacy-command-plan';

const pkg = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8'));
/** The commands of 0.1.0 previews were `gsd.<name>`; ours are now `gsdReviewLoop.<name>`. */
const ours: string[] = pkg.contributes.commands.map((c: { command: string }) => c.command);
/** The 11 commands the 0.1.0 manifest contributed (git show bb9ac39:package.json); later ones have no old id. */
const OLD_NAMES = ['nextUnit', 'refresh', 'showLog', 'compareWithPreviousCycle', 'openReview', 'revealInExplorer', 'completeUnit', 'replanSlice', 'showInPanel', 'compareReviewFile', 'installAgentHooks'];
const renamed = OLD_NAMES.map((n) => `gsdReviewLoop.${n}`);
const legacyOf = (id: string) => id.replace(/^gsdReviewLoop\./, 'gsd.');

describe('legacy gsd.* command aliases', () => {
  it('aliases every contributed command under its old gsd.* id when nobody else has it', () => {
    const aliases = legacyAliases(['workbench.action.files.save', ...ours], []);
    assert.deepEqual(aliases.map((a) => [a.legacy, a.target]).sort(), renamed.map((id) => [legacyOf(id), id]).sort());
    assert.ok(renamed.every((id) => ours.includes(id)), 'every old command still exists under its new id');
    assert.ok(!aliases.some((a) => a.legacy === 'gsd.handOffToGsd'), 'a command added after the rename has no old id');
  });

  it("leaves the ids another extension registered or contributes (GSD's successor) alone", () => {
    const successor = { contributes: { commands: [{ command: 'gsd.refresh', title: 'Refresh' }, { command: 'gsd.newProject' }] } };
    const aliases = legacyAliases(['gsd.nextUnit'], contributedCommands(successor));
    const legacy = aliases.map((a) => a.legacy);
    assert.ok(!legacy.includes('gsd.refresh'));
    assert.ok(!legacy.includes('gsd.nextUnit'));
    assert.ok(legacy.includes('gsd.completeUnit'));
    assert.equal(aliases.length, 9);
  });

  it('reads contributed commands from any package.json shape without throwing', () => {
    assert.deepEqual(contributedCommands(undefined), []);
    assert.deepEqual(contributedCommands({ contributes: { commands: 'x' } }), []);
    assert.deepEqual(contributedCommands({ contributes: { commands: [null, { command: 3 }, { command: 'a.b' }] } }), ['a.b']);
    assert.deepEqual(contributedCommands(pkg), ours);
  });
});
