// A task whose hook-state sidecar cannot be read (broken YAML, say) is blocked by it: the state says
// so, `next` dispatches nothing for it and says why with a non-zero exit, and its review loop never
// starts again at cycle 1 (which reading the file as empty would do). Checked on a copy of the
// bundled sample, whose T02 is in its second review cycle.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BUILTIN_HOOKS } from '../../src/builtin-hooks';
import { openProject } from '../../src/core/project/open-project';
import { buildCli, cli } from './helpers/cli';
import { dispatchNextUnit } from './helpers/one-shot-dispatch';

const SAMPLE = path.join(__dirname, '..', '..', 'sample-project');
const T02 = 'M002-k7q2xz/S02/T02';
const SIDECAR = '.gsd/milestones/M002-k7q2xz/slices/S02/tasks/T02-HOOKS.md';

function sampleWithBrokenSidecar(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-unreadable-'));
  fs.cpSync(SAMPLE, root, { recursive: true });
  const file = path.join(root, SIDECAR);
  // A person's slip: an unclosed flow sequence in the review loop's block.
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('      cycle: 2\n', '      cycle: [2\n'));
  return root;
}

describe('a task whose hook-state sidecar cannot be read', () => {
  it('is the review loop fix of cycle 2 before the slip (the sample as shipped)', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-unreadable-'));
    fs.cpSync(SAMPLE, root, { recursive: true });
    const d = (await dispatchNextUnit({ root, builtins: BUILTIN_HOOKS })).decision!;
    assert.deepEqual([d.unitType, d.unitId, d.data?.cycle], ['fix-task', T02, 2]);
  });

  it('is marked in the state with the file and the reason, beside the diagnostic', () => {
    const root = sampleWithBrokenSidecar();
    const state = openProject(root, { builtins: BUILTIN_HOOKS, reading: 'full' }).state();
    const t02 = state.milestones[1].slices[1].tasks[1];
    assert.equal(t02.hookStateUnreadable?.file, path.join(fs.realpathSync(root), SIDECAR));
    assert.match(t02.hookStateUnreadable!.reason, /^frontmatter is not valid YAML: /);
    assert.ok(state.diagnostics.some((d) => d.file.endsWith('T02-HOOKS.md') && d.severity === 'error'));
    // Its review files are still there to show.
    assert.deepEqual(t02.reviews.map((r) => r.cycle), [1]);
    assert.equal(state.milestones[1].slices[1].tasks[0].hookStateUnreadable, undefined);
  });

  it('blocks the next unit: no review of cycle 1, no default dispatch, nothing written', async () => {
    const root = sampleWithBrokenSidecar();
    const before = fs.readFileSync(path.join(root, SIDECAR), 'utf8');
    for (const apply of [false, true]) {
      const out = await dispatchNextUnit({ root, builtins: BUILTIN_HOOKS, apply });
      assert.equal(out.decision, null, `apply ${apply}`);
      assert.equal(out.blockedBy?.unitId, T02);
      assert.match(out.blocker!, /^M002-k7q2xz\/S02\/T02 is blocked by its hook-state file: T02-HOOKS\.md line \d+: frontmatter is not valid YAML: .+\. Fix that file; /);
      assert.deepEqual(out.written, []);
    }
    assert.equal(fs.readFileSync(path.join(root, SIDECAR), 'utf8'), before);
    assert.equal(fs.existsSync(path.join(root, '.gsd', 'gsd-review-loop', 'dispatch.json')), false, 'no dispatch recorded');
  });

  it('makes `gsd-review next` say why and exit 1, with and without --apply and --json', async () => {
    const gsd = await buildCli();
    const root = sampleWithBrokenSidecar();
    for (const args of [['next'], ['next', '--apply']]) {
      const r = cli(gsd, [...args, '--root', root]);
      assert.equal(r.status, 1, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
      assert.match(r.stdout, /^nothing to dispatch \(executing\): M002-k7q2xz\/S02\/T02 is blocked by its hook-state file: T02-HOOKS\.md line \d+: frontmatter is not valid YAML/);
      assert.doesNotMatch(r.stdout, /review-task|cycle 1 of/);
    }
    const j = cli(gsd, ['next', '--json', '--root', root]);
    assert.equal(j.status, 1);
    assert.equal(j.json.unitType, null);
    assert.equal(j.json.blockedBy.unitId, T02);
    assert.ok(j.json.blockedBy.file.endsWith('T02-HOOKS.md'));
  });

  it('goes back to the fix of cycle 2 once the file is fixed', async () => {
    const root = sampleWithBrokenSidecar();
    const file = path.join(root, SIDECAR);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('      cycle: [2\n', '      cycle: 2\n'));
    const d = (await dispatchNextUnit({ root, builtins: BUILTIN_HOOKS })).decision!;
    assert.deepEqual([d.unitType, d.unitId, d.data?.cycle], ['fix-task', T02, 2]);
  });
});
