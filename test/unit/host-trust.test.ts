// Copilot CLI runs no repository hooks in a folder it does not trust: the warning given before a
// review is dispatched, against `~/.copilot/config.json` and hook files as Copilot CLI 1.0.102 and our
// installer write them.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { applyFileChanges, readOrNull } from '../../src/core/files/file-changes';
import { planInstall } from '../../src/core/agent-hooks/hook-install';
import { copilotGuardWarning, trustFilesOnDisk } from '../../src/core/agent-hooks/host-trust';

function world(): { root: string; home: string } {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-trust-')));
  const root = path.join(dir, 'project');
  const home = path.join(dir, 'home');
  fs.mkdirSync(path.join(root, '.gsd'), { recursive: true });
  fs.mkdirSync(home);
  return { root, home };
}

function install(root: string, home: string, user: boolean): void {
  const plan = planInstall({ root, host: 'copilot-cli', user, home }, readOrNull);
  assert.deepEqual(applyFileChanges(plan.changes).conflicts, []);
}

/** `~/.copilot/config.json` as Copilot CLI keeps it: other settings beside `trustedFolders`. */
function config(home: string, trustedFolders: unknown): void {
  fs.mkdirSync(path.join(home, '.copilot'), { recursive: true });
  fs.writeFileSync(path.join(home, '.copilot', 'config.json'), JSON.stringify({ banner: 'never', model: 'claude-sonnet-4.5', trustedFolders }, null, 2));
}

const warn = (w: { root: string; home: string }) => copilotGuardWarning(trustFilesOnDisk(w.root, w.home));

describe('Copilot CLI folder trust and the review guard', () => {
  it('warns when the hooks are in the project only and Copilot CLI does not trust the folder', () => {
    const w = world();
    install(w.root, w.home, false);
    const text = warn(w);
    assert.match(text ?? '', /Copilot CLI does not trust .*project yet/);
    assert.match(text ?? '', /the reviewer's guard will not run/);
    assert.match(text ?? '', /gsd-review install-hooks --host copilot-cli --user/);
    config(w.home, ['/elsewhere', path.join(w.root, 'src')]);
    assert.ok(warn(w), 'another folder (or a subfolder) trusted is not this one');
    fs.writeFileSync(path.join(w.home, '.copilot', 'config.json'), '{ not json');
    assert.ok(warn(w), 'an unreadable config trusts nothing');
  });

  it('says nothing once the folder is trusted (also through a link), or with the hooks installed for the user', () => {
    const w = world();
    install(w.root, w.home, false);
    config(w.home, [w.root]);
    assert.equal(warn(w), null);
    const link = path.join(path.dirname(w.root), 'link');
    fs.symlinkSync(w.root, link);
    config(w.home, [link]);
    assert.equal(warn(w), null);
    config(w.home, []);
    assert.ok(warn(w));
    install(w.root, w.home, true);
    assert.equal(warn(w), null);
  });

  it('says nothing where Copilot CLI hooks of ours are not in the project', () => {
    const w = world();
    assert.equal(warn(w), null);
  });
});
