// Class 1 of issue 12: a repository is untrusted input. Every hostile tree here is built by the test:
// symlinks out of `.gsd` for each kind of path the core reads or writes, a pre-planted temp-name link
// for the hook log's rotation, and a symlinked `.gsd` with the PreToolUse guard. Nothing outside the
// real `.gsd` may be read into a prompt or written, in any mode, and each refusal is said.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { appendHookLog, hookLogFile, readHookLog } from '../../src/core/agent-hooks/hook-log';
import { confine, listConfinedFolder, openConfined, OutsideGsdError, realPathOf } from '../../src/core/files/confine';
import { NodeGsdStore } from '../../src/core/files/gsd-store';
import { locateProject } from '../../src/core/state/locate-project';
import { buildCli, cli } from './helpers/cli';
import { roadmap, slicePlan, taskSummary, writeTree } from './helpers/gsd-tree';

const M = '.gsd/milestones/M001';
const S = `${M}/slices/S01`;
const TASKS = `${S}/tasks`;
const RUNTIME = '.gsd/gsd-review-loop';
const SECRET = 'ssh-rsa AAAA-the-user-private-key-material';

function project(extra: Record<string, string> = {}): string {
  return writeTree({
    '.gsd/PREFERENCES.md': '---\ngsd_hooks:\n  enabled:\n    - name: review-loop\n    - name: pending-actions\n---\n',
    [`${M}/M001-ROADMAP.md`]: roadmap('M001', 'Invoicing', [{ id: 'S01', title: 'Invoice PDFs' }]),
    [`${S}/S01-PLAN.md`]: slicePlan('S01', 'Invoice PDFs', [{ id: 'T01', title: 'Render invoice', done: true }, { id: 'T02', title: 'Attach logo' }]),
    [`${TASKS}/T01-PLAN.md`]: '---\nid: T01\n---\n# T01: Render invoice\n\nRender an invoice to PDF.\n',
    [`${TASKS}/T02-PLAN.md`]: '# T02: Attach logo\n',
    [`${TASKS}/T01-SUMMARY.md`]: taskSummary('T01', 'S01', 'M001', { completedAt: '2026-11-20T10:00:00Z' }),
    ...extra,
  });
}

/** A folder outside every project, with files a hostile repository would like us to read or overwrite. */
function outside(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-victim-'));
  fs.writeFileSync(path.join(dir, 'authorized_keys'), SECRET + '\n');
  return dir;
}

/** Every file under a folder with its bytes, to show nothing was written there. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of fs.readdirSync(dir, { recursive: true }).map(String).sort()) {
    const p = path.join(dir, name);
    const st = fs.lstatSync(p);
    out[name] = st.isSymbolicLink() ? `-> ${fs.readlinkSync(p)}` : st.isFile() ? fs.readFileSync(p, 'utf8') : '<dir>';
  }
  return out;
}

function link(target: string, at: string): void {
  fs.mkdirSync(path.dirname(at), { recursive: true });
  fs.symlinkSync(target, at);
}

const payload = (root: string, event: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ hook_event_name: event, session_id: 's1', cwd: root, timestamp: '2026-11-22T10:00:00Z', ...extra });

describe('confinement to the real .gsd (symlinks, planted temp names)', function () {
  this.timeout(60_000);
  let gsd: string;
  before(async () => {
    gsd = await buildCli();
  });

  it('hook --untrusted never appends to a hooks.jsonl that links out of .gsd, and says so', () => {
    const root = project();
    const victim = outside();
    link(path.join(victim, 'authorized_keys'), path.join(root, RUNTIME, 'hooks.jsonl'));
    const before = snapshot(victim);
    const r = cli(gsd, ['hook', '--untrusted', '--root', root], payload(root, 'SessionStart', { source: 'startup' }));
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(snapshot(victim), before);
    assert.match(r.stderr, /^gsd-review hook: hook event not logged: \S*hooks\.jsonl leads outside \.gsd .*refused$/m);
    // The agent still gets its answer: the log's trouble never blocks it.
    assert.match(r.stdout, /GSD project: phase/);
  });

  it('writes nothing through a runtime folder that links out of .gsd (hook log, dispatch record)', () => {
    const root = project();
    const victim = outside();
    link(victim, path.join(root, '.gsd', 'gsd-review-loop'));
    const before = snapshot(victim);
    const hook = cli(gsd, ['hook', '--untrusted', '--root', root], payload(root, 'UserPromptSubmit', { prompt: 'go on' }));
    assert.equal(hook.status, 0, hook.stderr);
    const next = cli(gsd, ['next', '--apply', '--json', '--root', root]);
    assert.notEqual(next.status, 0, 'the dispatch must be refused, not recorded outside .gsd');
    assert.match(next.stderr, /^gsd-review: .*leads outside \.gsd.*refused\n$/);
    assert.deepEqual(snapshot(victim), before);
  });

  it('writes nothing through a slice folder that links out of .gsd', () => {
    const victim = outside();
    // The slice's real files live outside the repository; the repository links them in.
    writeTree({
      'S01/S01-PLAN.md': slicePlan('S01', 'Invoice PDFs', [{ id: 'T01', title: 'Render invoice', done: true }]),
      'S01/tasks/T01-PLAN.md': '# T01: Render invoice\n',
      'S01/tasks/T01-SUMMARY.md': taskSummary('T01', 'S01', 'M001'),
    }, victim);
    const root = project();
    fs.rmSync(path.join(root, S), { recursive: true });
    link(path.join(victim, 'S01'), path.join(root, S));
    const before = snapshot(victim);
    const next = cli(gsd, ['next', '--apply', '--json', '--root', root]);
    cli(gsd, ['complete', '--json', '--root', root]);
    cli(gsd, ['hook', '--untrusted', '--root', root], payload(root, 'PreCompact', { trigger: 'auto' }));
    assert.deepEqual(snapshot(victim), before, `next said: ${next.stdout}${next.stderr}`);
  });

  it('never puts outside text into the fix prompt through lastReviewPath in a linked folder', () => {
    const victim = outside();
    fs.writeFileSync(path.join(victim, 'T01-CODE-REVIEW-C1.md'), `---\ntask: T01\ncycle: 1\nverdict: changes-requested\n---\n# Code review: T01 (cycle 1)\n## Issues\n- [ ] **major** ${SECRET}\n`);
    const rel = 'milestones/M001/slices/S01/tasks/old-reviews/T01-CODE-REVIEW-C1.md';
    const root = project({
      [`${TASKS}/T01-PLAN.md`]: `---\nid: T01\nextensions:\n  review-loop:\n    activeReview:\n      taskId: T01\n      cycle: 2\n      status: fixing\n      lastReviewPath: ${rel}\n    history: []\n---\n# T01: Render invoice\n`,
    });
    link(victim, path.join(root, TASKS, 'old-reviews'));
    const r = cli(gsd, ['next', '--json', '--root', root]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.json.unitType, 'fix-task');
    assert.doesNotMatch(r.stdout, /private-key-material/);
    assert.ok(
      (r.json.diagnostics as Array<{ message: string }>).some((d) => /leads outside \.gsd/.test(d.message)),
      JSON.stringify(r.json.diagnostics),
    );
  });

  it('writes a symlinked sidecar through to its target inside .gsd and keeps the link', () => {
    const root = project();
    const sidecar = path.join(root, TASKS, 'T01-HOOKS.md');
    const target = path.join(root, '.gsd', 'state', 'T01-HOOKS.md');
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, '---\nextensions:\n  my-policy:\n    ok: true\n---\n');
    link('../../../../../state/T01-HOOKS.md', sidecar);
    const r = cli(gsd, ['next', '--apply', '--json', '--root', root]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.json.unitType, 'review-task');
    assert.ok(fs.lstatSync(sidecar).isSymbolicLink(), 'the user\'s link was replaced by a plain file');
    assert.match(fs.readFileSync(target, 'utf8'), /my-policy:\n\s+ok: true\n\s+review-loop:\n\s+activeReview:/);
  });

  it('refuses a task plan that links out of .gsd: not read into state, not written, not moved', () => {
    const victim = outside();
    const root = project();
    const plan = path.join(root, TASKS, 'T01-PLAN.md');
    // An older version's block in it: the move must not follow the link either.
    fs.writeFileSync(path.join(victim, 'T01-PLAN.md'), '---\nextensions:\n  my-policy:\n    planted: true\n---\n# T01: Render invoice\n');
    fs.rmSync(plan);
    link(path.join(victim, 'T01-PLAN.md'), plan);
    const before = snapshot(victim);
    const state = cli(gsd, ['state', '--json', '--full', '--root', root]);
    assert.equal(state.status, 0, state.stderr);
    assert.ok((state.json.diagnostics as Array<{ file: string; message: string }>).some((d) => d.file.endsWith('T01-PLAN.md') && /leads outside \.gsd/.test(d.message)));
    const next = cli(gsd, ['next', '--apply', '--json', '--root', root]);
    // The hook state goes to the sidecar inside .gsd; the linked plan is GSD's and is left alone.
    assert.equal(next.status, 0, next.stderr);
    assert.match(JSON.stringify(next.json.diagnostics), /hook state in \S*T01-PLAN\.md not moved: \S*T01-PLAN\.md leads outside \.gsd/);
    assert.deepEqual(snapshot(victim), before);
    assert.doesNotMatch(fs.readFileSync(path.join(root, TASKS, 'T01-HOOKS.md'), 'utf8'), /planted/);
  });

  it('rotates the hook log without writing through a pre-planted temp-name link', () => {
    const root = project();
    const victim = outside();
    const gsdDir = fs.realpathSync(path.join(root, '.gsd'));
    const log = hookLogFile(gsdDir);
    fs.mkdirSync(path.dirname(log), { recursive: true });
    const line = JSON.stringify({ at: '2026-11-22T09:00:00Z', event: 'PostToolUse', sessionId: 'old', answer: 'none', ms: 1 }) + '\n';
    fs.writeFileSync(log, line.repeat(Math.ceil((300 * 1024) / line.length)));
    // The name the rotation used to write to, `hooks.jsonl.<pid>.tmp`, planted for this process and
    // for the next pids, pointing at a file the attacker wants overwritten.
    for (let pid = process.pid; pid < process.pid + 50; pid++) link(path.join(victim, 'authorized_keys'), `${log}.${pid}.tmp`);
    const before = snapshot(victim);
    const refused = appendHookLog(gsdDir, { at: '2026-11-22T10:00:00Z', event: 'Stop', sessionId: 'new', answer: 'none', ms: 2 });
    assert.deepEqual(snapshot(victim), before);
    assert.equal(refused, null);
    assert.ok(fs.lstatSync(log).isFile() && !fs.lstatSync(log).isSymbolicLink());
    assert.ok(fs.statSync(log).size < 256 * 1024, 'the log was rotated');
    assert.equal(readHookLog(gsdDir, 1)[0].sessionId, 'new');
  });

  it('the panel never reads a hook log that links out of .gsd', () => {
    const root = project();
    const victim = outside();
    const gsdDir = fs.realpathSync(path.join(root, '.gsd'));
    fs.writeFileSync(path.join(victim, 'events.jsonl'), JSON.stringify({ at: 'x', event: SECRET, sessionId: 's', answer: 'none', ms: 0 }) + '\n');
    link(path.join(victim, 'events.jsonl'), hookLogFile(gsdDir));
    assert.deepEqual(readHookLog(gsdDir), []);
  });

  it('denies an agent edit of our runtime records when .gsd itself is a symlink', () => {
    const realGsd = path.join(project(), '.gsd');
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-linked-'));
    fs.mkdirSync(path.join(root, '.git'));
    link(realGsd, path.join(root, '.gsd'));
    const record = path.join(root, RUNTIME, 'dispatch.json');
    const r = cli(gsd, ['hook', '--root', root], payload(root, 'PreToolUse', { tool_name: 'Write', tool_input: { file_path: record, content: '{}' } }));
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.json?.hookSpecificOutput?.permissionDecision, 'deny', r.stdout);
  });

  it('resolves dangling links and missing tails before judging a path', () => {
    const root = project();
    const victim = outside();
    const gsdDir = path.join(root, '.gsd');
    link(path.join(victim, 'not-yet', 'there.md'), path.join(gsdDir, 'dangling.md'));
    assert.equal(realPathOf(path.join(gsdDir, 'dangling.md')), path.join(fs.realpathSync(victim), 'not-yet', 'there.md'));
    assert.throws(() => confine(gsdDir, 'dangling.md'), OutsideGsdError);
    assert.throws(() => confine(gsdDir, '../outside.md'), OutsideGsdError);
    assert.equal(confine(gsdDir, 'milestones/M009/new/file.md'), path.join(fs.realpathSync(gsdDir), 'milestones/M009/new/file.md'));
  });

  it('a listing remembers its plain folders, never its links: a linked slice folder is refused on first use, a swapped one once the memory expires', async () => {
    const victim = outside();
    fs.mkdirSync(path.join(victim, 'tasks'));
    fs.writeFileSync(path.join(victim, 'tasks', 'T01-PLAN.md'), `# T01: ${SECRET}\n`);
    fs.writeFileSync(path.join(victim, 'S02-PLAN.md'), `# S02: ${SECRET}\n`);
    const root = project();
    const slices = path.join(root, M, 'slices');
    link(victim, path.join(slices, 'S02'));
    locateProject(root);
    const store = new NodeGsdStore();
    const listed = store.list(slices)!;
    assert.deepEqual(listed.map((e) => [e.name, e.isDirectory]).sort(), [['S01', true], ['S02', true]]);
    // S02 was listed as a link: reading through it is judged now, and refused.
    assert.throws(() => store.readText(path.join(slices, 'S02', 'S02-PLAN.md')), OutsideGsdError);
    // S01 was listed as a plain folder: read through what the listing said...
    const tasks = path.join(slices, 'S01', 'tasks');
    store.list(path.join(slices, 'S01'));
    assert.match(store.readText(path.join(tasks, 'T01-PLAN.md'))!, /# T01: Render invoice/);
    // ...and once that is older than the folder memory (1 s), a folder swapped for a link is refused.
    fs.renameSync(tasks, path.join(root, 'moved-away'));
    link(path.join(victim, 'tasks'), tasks);
    // The memory's age is read from Date.now: the clock is moved past it rather than slept through.
    const realNow = Date.now;
    Date.now = () => realNow() + 1100;
    try {
      assert.throws(() => store.readText(path.join(tasks, 'T01-PLAN.md')), OutsideGsdError);
    } finally {
      Date.now = realNow;
    }
  });

  it('a folder listed by its descriptor (GSD-2 database projects): judged at the open, a link out refused, a link inside followed, a FIFO or a file not listed', () => {
    const victim = outside();
    const root = project();
    const gsdDir = fs.realpathSync(path.join(root, '.gsd'));
    const slices = path.join(root, M, 'slices');
    link(victim, path.join(root, M, 'elsewhere'));
    link(slices, path.join(root, '.gsd', 'slices-here'));
    locateProject(root);
    const listed = listConfinedFolder(slices);
    assert.deepEqual([listed.real, listed.entries.map((e) => [e.name, e.isDirectory()])], [path.join(gsdDir, 'milestones/M001/slices'), [['S01', true]]]);
    // A link inside .gsd to another folder of it is that folder.
    assert.equal(listConfinedFolder(path.join(root, '.gsd', 'slices-here')).real, path.join(gsdDir, 'milestones/M001/slices'));
    assert.throws(() => listConfinedFolder(path.join(root, M, 'elsewhere')), OutsideGsdError);
    // Named through the link and up again: the name is not resolved first, what was opened is judged.
    assert.throws(() => listConfinedFolder([root, M, 'elsewhere', '..'].join(path.sep)), OutsideGsdError);
    assert.throws(() => listConfinedFolder(path.join(root, M, 'M404')), { code: 'ENOENT' });
    assert.throws(() => listConfinedFolder(path.join(root, S, 'S01-PLAN.md')), { code: 'ENOTDIR' });
    if (process.platform !== 'win32') {
      spawnSync('mkfifo', [path.join(root, M, 'fifo')]);
      // Opened as a folder: refused at once, never waiting for a writer.
      assert.throws(() => listConfinedFolder(path.join(root, M, 'fifo')), { code: 'ENOTDIR' });
    }
    assert.throws(() => listConfinedFolder(victim), OutsideGsdError);
  });

  it('right after a file of a folder was opened (its verdict is reused), a path through that folder that leads out is refused', () => {
    const victim = outside();
    const root = project();
    const tasks = path.join(root, TASKS);
    link(victim, path.join(tasks, 'elsewhere'));
    link(path.join(victim, 'authorized_keys'), path.join(tasks, 'T09-PLAN.md'));
    locateProject(root);
    const read = (file: string) => {
      const fd = openConfined(file, fs.constants.O_RDONLY);
      if (fd === null) return null;
      try {
        return fs.readFileSync(fd, 'utf8');
      } finally {
        fs.closeSync(fd);
      }
    };
    assert.match(read(path.join(tasks, 'T01-PLAN.md'))!, /# T01: Render invoice/);
    assert.equal(read(path.join(tasks, 'T07-PLAN.md')), null);
    for (const file of [
      path.join(tasks, 'elsewhere', 'authorized_keys'),
      [tasks, '..', '..', '..', '..', '..', '..', 'outside.md'].join(path.sep),
      `${tasks}${path.sep}..${path.sep}..${path.sep}..${path.sep}..${path.sep}..${path.sep}..`,
      path.join(tasks, 'T09-PLAN.md'),
    ]) {
      assert.match(read(path.join(tasks, 'T02-PLAN.md'))!, /# T02: Attach logo/);
      assert.throws(() => read(file), OutsideGsdError, file);
    }
  });
});
