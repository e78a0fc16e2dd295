// One long line in a repository's files must not stall the tool: hosts kill a hook after 30 s, and
// the quadratic line patterns took 70 s on a 150 KB PREFERENCES.md line and 20 s on a 100 KB review
// line. Each run is a child process killed after a fixed limit: a regression fails instead of
// hanging the suite. (Speed itself is measured by `npm run bench`, per KB, never asserted here.)
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildCli } from './helpers/cli';
import { roadmap, slicePlan, taskSummary, writeTree } from './helpers/gsd-tree';

const KILL_AFTER_MS = 20_000;
const M = '.gsd/milestones/M001';
const TASKS = `${M}/slices/S01/tasks`;

/** Blanks around a word and before the last character: where `(.*?)\s*$` backtracked. */
const longLine = (prefix: string, size: number) => prefix + ' '.repeat(size / 2) + 'a' + ' '.repeat(size / 2) + 'x';

function runCli(cli: string, args: string[], input = '') {
  return spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', input, timeout: KILL_AFTER_MS, env: { ...process.env, HOME: os.tmpdir() } });
}

describe('long lines are scanned in linear time (class 3)', function () {
  this.timeout(120_000);
  let cli: string;
  before(async () => {
    cli = await buildCli();
  });

  it('`hook` answers with a 150 KB line in PREFERENCES.md, and `complete` with a 100 KB line in a review', () => {
    const root = writeTree({
      '.gsd/PREFERENCES.md': `---\nversion: 1\n${longLine('note: ', 150_000)}\ngsd_hooks:\n  enabled:\n    - name: review-loop\n---\n`,
      [`${M}/M001-ROADMAP.md`]: roadmap('M001', 'Invoicing', [{ id: 'S01', title: 'Invoice PDFs' }]) + longLine('- [ ] **S09: ', 100_000) + '\n',
      [`${M}/slices/S01/S01-PLAN.md`]: slicePlan('S01', 'Invoice PDFs', [{ id: 'T01', title: 'Render invoice', done: true }, { id: 'T02', title: 'Attach logo' }]) + longLine('- [ ] **T09: ', 100_000) + '\n',
      [`${TASKS}/T01-PLAN.md`]: '# T01: Render invoice\n',
      [`${TASKS}/T01-SUMMARY.md`]: taskSummary('T01', 'S01', 'M001', { completedAt: '2026-11-20T10:00:00Z' }),
    });
    const hook = runCli(cli, ['hook', '--root', root], JSON.stringify({ hook_event_name: 'SessionStart', session_id: 's', cwd: root, source: 'startup' }));
    assert.equal(hook.signal, null, `hook was killed after ${KILL_AFTER_MS} ms`);
    assert.equal(hook.status, 0, hook.stderr);

    const next = runCli(cli, ['next', '--apply', '--json', '--root', root]);
    assert.equal(next.signal, null, `next was killed after ${KILL_AFTER_MS} ms`);
    assert.equal(JSON.parse(next.stdout).unitType, 'review-task');
    fs.writeFileSync(
      path.join(root, TASKS, 'T01-CODE-REVIEW.md'),
      `---\ntask: T01\ncycle: 1\nverdict: changes-requested\n---\n# Code review: T01 (cycle 1)\n\n## Issues\n\n${longLine('- [ ] **major** ', 100_000)}\n`,
    );
    const complete = runCli(cli, ['complete', '--json', '--root', root]);
    assert.equal(complete.signal, null, `complete was killed after ${KILL_AFTER_MS} ms`);
    assert.equal(complete.status, 0, complete.stderr);
    const after = runCli(cli, ['next', '--json', '--root', root]);
    assert.equal(JSON.parse(after.stdout).unitType, 'fix-task', 'the long open issue counts as an issue');
  });
});
