// A successor project (@opengsd/gsd-pi 1.x) where an older version of ours left records: the old
// runtime folder in GSD's `.gsd/runtime/`, and a commit journal in our folder. GSD runs its own
// reviews there and nothing of its `.gsd` is ours to write; before the fix, `state` and every hook
// event moved the old folder and deleted (or applied) the journal. The whole `.gsd` must stay
// byte-identical, mtimes included. Runs on Node 20 too: the successor is recognised by its layout.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildCli } from './helpers/cli';
import { snapshotTree } from './helpers/folder-snapshot';
import { writeSuccessorLayout } from './helpers/successor-project';

const DISPATCH = JSON.stringify({ unit: 'M001/S02/T01', kind: 'execute-task', at: '2026-10-01T10:00:00Z' });
// What an interrupted commit of an older version left: the journal names a file it was writing.
const JOURNAL = JSON.stringify({ version: 1, files: [{ path: 'milestones/M001/T01-HOOKS.md', content: '# hooks\n' }] });

function leftovers(): { root: string; gsdDir: string } {
  return writeSuccessorLayout({
    '.gsd/runtime/gsd-review-loop/dispatch.json': DISPATCH,
    '.gsd/runtime/gsd-review-loop/hook-log.jsonl': '{"event":"Stop"}\n',
    '.gsd/gsd-review-loop/commit-journal.json': JOURNAL,
  });
}

describe('a successor project keeps an older version of ours untouched', function () {
  this.timeout(60_000);
  let cli: string;
  before(async () => {
    cli = await buildCli();
  });

  const event = (root: string, name: string, extra: Record<string, unknown> = {}) => JSON.stringify({ hook_event_name: name, session_id: 's1', cwd: root, ...extra });
  const runs: Array<[string, (root: string) => { args: string[]; input: string }]> = [
    ['state', (root) => ({ args: [cli, 'state', '--root', root], input: '' })],
    ['state --json --full', (root) => ({ args: [cli, 'state', '--json', '--full', '--root', root], input: '' })],
    ['gsd-review hook (SessionStart)', (root) => ({ args: [cli, 'hook', '--root', root], input: event(root, 'SessionStart', { source: 'startup' }) })],
    ['dist/hook.js (PreToolUse)', (root) => ({ args: [path.join(path.dirname(cli), 'hook.js'), '--root', root], input: event(root, 'PreToolUse', { tool_name: 'Write', tool_input: { file_path: path.join(root, 'a.ts'), content: 'x' } }) })],
  ];
  for (const [name, how] of runs) {
    it(`${name}: .gsd stays byte-identical`, () => {
      const { root, gsdDir } = leftovers();
      try {
        const before = snapshotTree(gsdDir);
        const { args, input } = how(root);
        const r = spawnSync(process.execPath, args, { cwd: root, input, encoding: 'utf8', env: { ...process.env, HOME: os.tmpdir() } });
        assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
        assert.deepEqual(snapshotTree(gsdDir), before);
        assert.equal(fs.readFileSync(path.join(gsdDir, 'gsd-review-loop', 'commit-journal.json'), 'utf8'), JOURNAL);
      } finally {
        fs.rmSync(root, { recursive: true, force: true });
      }
    });
  }
});
