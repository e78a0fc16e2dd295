// Class 2 of issue 12: only regular files are read, their size is checked on the open file first, and
// the cap holds in every command (`state`, `next`, `complete`, `hook`) and for our own records. A
// repository planting `/dev/zero` or a FIFO where GSD keeps markdown gets a diagnostic, not a hang or
// gigabytes of memory. Each command runs as a child process with a hard time limit.
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MAX_READ_BYTES, readBoundedText, UnreadableFileError } from '../../src/core/files/bounded-read';
import { buildCli } from './helpers/cli';
import { codeReview, roadmap, slicePlan, taskSummary, writeTree } from './helpers/gsd-tree';
import { skipBecause } from '../shared/skip-because';

const M = '.gsd/milestones/M001';
const S = `${M}/slices/S01`;
const TASKS = `${S}/tasks`;
const RUNTIME = '.gsd/gsd-review-loop';
/** Far above what any of these commands needs on a small project; a hang or a 16 GB read hits it. */
const LIMIT_MS = 20_000;

function project(): string {
  return writeTree({
    '.gsd/PREFERENCES.md': '---\ngsd_hooks:\n  enabled:\n    - name: review-loop\n    - name: pending-actions\n---\n',
    [`${M}/M001-ROADMAP.md`]: roadmap('M001', 'Invoicing', [{ id: 'S01', title: 'Invoice PDFs' }]),
    [`${S}/S01-PLAN.md`]: slicePlan('S01', 'Invoice PDFs', [{ id: 'T01', title: 'Render invoice', done: true }, { id: 'T02', title: 'Attach logo' }]),
    [`${TASKS}/T01-PLAN.md`]: '# T01: Render invoice\n',
    [`${TASKS}/T01-SUMMARY.md`]: taskSummary('T01', 'S01', 'M001', { completedAt: '2026-11-20T10:00:00Z' }),
  });
}

interface Run {
  status: number | null;
  signal: NodeJS.Signals | null;
  ms: number;
  stdout: string;
  stderr: string;
  json: any;
}

function run(script: string, args: string[], input = ''): Run {
  const started = Date.now();
  const r = spawnSync(process.execPath, [script, ...args], { encoding: 'utf8', input, timeout: LIMIT_MS, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, HOME: os.tmpdir() } });
  let json: unknown = null;
  try {
    json = JSON.parse(r.stdout);
  } catch {
    // not JSON
  }
  return { status: r.status, signal: r.signal, ms: Date.now() - started, stdout: r.stdout ?? '', stderr: r.stderr ?? '', json };
}

function finished(r: Run, what: string): void {
  assert.equal(r.signal, null, `${what} did not finish within ${LIMIT_MS / 1000} s (killed); stderr: ${r.stderr.slice(0, 300)}`);
}

function mkfifo(p: string): void {
  fs.mkdirSync(path.dirname(p), { recursive: true });
  execFileSync('mkfifo', [p]);
}

const messages = (r: Run) => JSON.stringify(r.json?.diagnostics ?? []) + r.stderr;

describe('bounded reads (regular files only, size checked before reading)', function () {
  this.timeout(4 * LIMIT_MS);
  let gsd: string;
  before(async function () {
    if (process.platform === 'win32') skipBecause(this, 'FIFOs and devices are POSIX');
    gsd = await buildCli();
  });

  it('a task summary linked to /dev/zero: state, next and hook answer at once with a diagnostic', () => {
    const root = project();
    const summary = path.join(root, TASKS, 'T02-SUMMARY.md');
    fs.symlinkSync('/dev/zero', summary);
    const state = run(gsd, ['state', '--json', '--full', '--root', root]);
    finished(state, 'state');
    assert.equal(state.status, 0, state.stderr);
    assert.match(messages(state), /T02-SUMMARY\.md.*(outside \.gsd|character device)/);
    const next = run(gsd, ['next', '--json', '--root', root]);
    finished(next, 'next');
    assert.equal(next.status, 0, next.stderr);
    assert.match(messages(next), /T02-SUMMARY\.md/);
    const hook = run(gsd, ['hook', '--untrusted', '--root', root], JSON.stringify({ hook_event_name: 'SessionStart', session_id: 's', cwd: root, source: 'startup' }));
    finished(hook, 'hook');
    assert.equal(hook.status, 0);
  });

  it('complete reads a review that is /dev/zero, a FIFO or 3 MB: a diagnostic, never a hang', () => {
    for (const kind of ['dev-zero', 'fifo', 'huge'] as const) {
      const root = project();
      const applied = run(gsd, ['next', '--apply', '--json', '--root', root]);
      finished(applied, 'next --apply');
      assert.equal(applied.json?.unitType, 'review-task', applied.stderr);
      const review = path.join(root, TASKS, 'T01-CODE-REVIEW.md');
      if (kind === 'dev-zero') fs.symlinkSync('/dev/zero', review);
      else if (kind === 'fifo') mkfifo(review);
      else fs.writeFileSync(review, codeReview('T01', 1, 'changes-requested', [{ text: 'x'.repeat(3 * 1024 * 1024) }]));
      const complete = run(gsd, ['complete', '--json', '--root', root]);
      finished(complete, `complete (${kind})`);
      assert.match(messages(complete) + complete.stdout, kind === 'huge' ? /too large/ : /(character device|FIFO|outside \.gsd)/, `${kind}: ${complete.stdout}${complete.stderr}`);
    }
  });

  it('a FIFO as a task plan, the dispatch record or the hook log: every command returns', () => {
    const root = project();
    mkfifo(path.join(root, TASKS, 'T02-PLAN.md'));
    const next = run(gsd, ['next', '--json', '--root', root]);
    finished(next, 'next with a FIFO plan');
    assert.equal(next.status, 0, next.stderr);
    assert.match(messages(next), /T02-PLAN\.md is a FIFO/);

    mkfifo(path.join(root, RUNTIME, 'dispatch.json'));
    const apply = run(gsd, ['next', '--apply', '--json', '--root', root]);
    finished(apply, 'next --apply with a FIFO record');
    assert.equal(apply.status, 1);
    assert.match(apply.stderr, /^gsd-review: .*dispatch\.json is a FIFO \(named pipe\), not a regular file; not read\n$/);

    mkfifo(path.join(root, RUNTIME, 'hooks.jsonl'));
    const hook = run(gsd, ['hook', '--untrusted', '--root', root], JSON.stringify({ hook_event_name: 'Stop', session_id: 's', cwd: root }));
    finished(hook, 'hook with a FIFO log');
    assert.equal(hook.status, 0);
    assert.match(hook.stderr, /hook event not logged/);
  });

  describe('a folder listing that saw a regular file (the full derive reads without checking the open file first)', () => {
    const refused = (file: string, reason: UnreadableFileError['reason'], message: RegExp) => (error: unknown) =>
      error instanceof UnreadableFileError && error.file === file && error.reason === reason && message.test(error.message);

    it('reads the whole text of a small file, and of one larger than the first buffer', () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-listed-'));
      const small = path.join(dir, 'T01-PLAN.md');
      fs.writeFileSync(small, '---\nestimate: 30m\n---\n# T01: Ünïcödé ✅\n');
      assert.equal(readBoundedText(small, MAX_READ_BYTES, undefined, true), '---\nestimate: 30m\n---\n# T01: Ünïcödé ✅\n');
      const large = path.join(dir, 'S01-PLAN.md');
      const text = '# S01: Large\n' + '- [ ] **T01: Task** `est:1h` ✅\n'.repeat(5000);
      fs.writeFileSync(large, text);
      assert.ok(Buffer.byteLength(text) > 64 * 1024);
      assert.equal(readBoundedText(large, MAX_READ_BYTES, undefined, true), text);
      // Around the size up to which one short read is taken as the whole file.
      for (const size of [4095, 4096, 4097, 20_000]) {
        const mid = path.join(dir, `T0${size}-PLAN.md`);
        const body = 'é'.repeat(size >> 1) + (size % 2 ? 'x' : '');
        fs.writeFileSync(mid, body);
        assert.equal(Buffer.byteLength(body), size);
        assert.equal(readBoundedText(mid, MAX_READ_BYTES, undefined, true), body, `${size} bytes`);
      }
      const empty = path.join(dir, 'T02-PLAN.md');
      fs.writeFileSync(empty, '');
      assert.equal(readBoundedText(empty, MAX_READ_BYTES, undefined, true), '');
    });

    it('still refuses a file over the limit, with its size', () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-listed-'));
      const huge = path.join(dir, 'T01-SUMMARY.md');
      fs.writeFileSync(huge, 'x'.repeat(3 * 1024 * 1024));
      assert.throws(() => readBoundedText(huge, MAX_READ_BYTES, undefined, true), refused(huge, 'too-large', /is 3\.0 MB, too large/));
      // A limit below the first buffer is held too.
      const small = path.join(dir, 'T01-PLAN.md');
      fs.writeFileSync(small, 'y'.repeat(5000));
      assert.throws(() => readBoundedText(small, 4096, undefined, true), refused(small, 'too-large', /too large/));
    });

    it('refuses what was swapped in since the listing: a folder, a FIFO (empty, or fed by a writer still there), a device', function () {
      if (process.platform === 'win32') skipBecause(this, 'FIFOs and devices are POSIX');
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-listed-'));
      const folder = path.join(dir, 'T01-PLAN.md');
      fs.mkdirSync(folder);
      assert.throws(() => readBoundedText(folder, MAX_READ_BYTES, undefined, true), refused(folder, 'not-regular', /is a folder, not a regular file/));
      const fifo = path.join(dir, 'T02-PLAN.md');
      mkfifo(fifo);
      assert.throws(() => readBoundedText(fifo, MAX_READ_BYTES, undefined, true), refused(fifo, 'not-regular', /is a FIFO/));
      // A writer that keeps the pipe open after writing: the read drains the text, then would block.
      const writer = fs.openSync(fifo, fs.constants.O_RDWR);
      try {
        fs.writeSync(writer, '# T02: not a file\n');
        assert.throws(() => readBoundedText(fifo, MAX_READ_BYTES, undefined, true), refused(fifo, 'not-regular', /is a FIFO/));
      } finally {
        fs.closeSync(writer);
      }
      assert.throws(() => readBoundedText('/dev/zero', MAX_READ_BYTES, undefined, true), refused('/dev/zero', 'not-regular', /character device/));
      assert.throws(() => readBoundedText('/dev/null', MAX_READ_BYTES, undefined, true), refused('/dev/null', 'not-regular', /character device/));
    });
  });
});
