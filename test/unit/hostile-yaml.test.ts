// Frontmatter built to turn the YAML reader and writer against us: whatever the reader reports broken
// the writer refuses (so a review is never reset to cycle 1), aliases cannot blow up memory or time,
// and a write either keeps every byte outside our block or is refused with a reason.
// The CLI cases run in a child process with a time and memory limit: a regression fails, not hangs.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseFrontmatter } from '../../src/core/parse/frontmatter';
import { FrontmatterWriteError, setExtensionBlock } from '../../src/core/parse/frontmatter-block';
import { buildCli } from './helpers/cli';
import { roadmap, slicePlan, taskSummary, writeTree } from './helpers/gsd-tree';

const M = '.gsd/milestones/M001';
const TASKS = `${M}/slices/S01/tasks`;

/** A billion-laughs chain: each line lists the one before twice (2^lines values once expanded). */
function aliasChain(lines: number): string {
  const out = ['a0: &a0 [x, x]'];
  for (let i = 1; i < lines; i++) out.push(`a${i}: &a${i} [*a${i - 1}, *a${i - 1}]`);
  return out.join('\n') + '\n';
}

const ACTIVE = 'extensions:\n  review-loop:\n    activeReview:\n      taskId: T01\n      cycle: 3\n      status: pending_review\n      lastReviewPath: ""\n    history: []\n';

function project(planFrontmatter: string, prefs = ''): string {
  return writeTree({
    '.gsd/PREFERENCES.md': `---\n${prefs}gsd_hooks:\n  enabled:\n    - name: review-loop\n      options: { max_cycles: 5 }\n---\n`,
    [`${M}/M001-ROADMAP.md`]: roadmap('M001', 'Invoicing', [{ id: 'S01', title: 'Invoice PDFs' }]),
    [`${M}/slices/S01/S01-PLAN.md`]: slicePlan('S01', 'Invoice PDFs', [{ id: 'T01', title: 'Render invoice', done: true }, { id: 'T02', title: 'Attach logo' }]),
    [`${TASKS}/T01-PLAN.md`]: `---\n${planFrontmatter}---\n# T01: Render invoice\n`,
    [`${TASKS}/T01-SUMMARY.md`]: taskSummary('T01', 'S01', 'M001', { completedAt: '2026-11-20T10:00:00Z' }),
  });
}

function runCli(cli: string, args: string[], input = '') {
  return spawnSync(process.execPath, ['--max-old-space-size=256', cli, ...args], { encoding: 'utf8', input, timeout: 20_000, env: { ...process.env, HOME: os.tmpdir() } });
}

describe('YAML that cannot be turned against us (class 4)', function () {
  this.timeout(120_000);
  let cli: string;
  before(async () => {
    cli = await buildCli();
  });

  it('the writer refuses what the reader reports broken, so a review in cycle 3 is not reset to cycle 1', () => {
    const broken: Array<[string, string]> = [
      ['a !!timestamp', 'started: !!timestamp 2026-11-20T10:00:00Z\n'],
      ['a custom tag', 'owner: !secret alice\n'],
      ['a control character', 'note: "bell \u0007 here"\n'],
      ['nesting over the limit', `deep: ${'['.repeat(40)}1${']'.repeat(40)}\n`],
    ];
    for (const [what, line] of broken) {
      const root = project(`id: T01\n${line}${ACTIVE}`);
      const planFile = path.join(root, TASKS, 'T01-PLAN.md');
      const before = fs.readFileSync(planFile);
      const read = parseFrontmatter(before.toString('utf8'), planFile);
      assert.ok(read.diagnostics.length > 0, `the reader accepts ${what}`);
      const r = runCli(cli, ['next', '--apply', '--json', '--root', root]);
      assert.equal(r.signal, null, `${what}: killed`);
      assert.doesNotMatch(r.stderr, /\n\s+at /);
      assert.ok(fs.readFileSync(planFile).equals(before), `${what}: T01-PLAN.md was rewritten:\n${fs.readFileSync(planFile, 'utf8')}`);
      assert.throws(() => setExtensionBlock(before.toString('utf8'), 'review-loop', { activeReview: { cycle: 1 } }), FrontmatterWriteError, what);
    }
  });

  it('a 40-line alias chain does not hang next, state --json or hook (bounded time and memory)', () => {
    const bomb = aliasChain(40);
    const root = project(`id: T01\n${bomb}`, bomb);
    for (const args of [['next', '--json'], ['state', '--json', '--full'], ['hook']]) {
      const input = args[0] === 'hook' ? JSON.stringify({ hook_event_name: 'SessionStart', session_id: 's', cwd: root, source: 'startup' }) : '';
      const r = runCli(cli, [...args, '--root', root], input);
      assert.equal(r.signal, null, `${args[0]} was killed (hang or out of memory)`);
      assert.equal(r.status, 0, `${args[0]}: ${r.stderr}`);
      assert.doesNotMatch(r.stderr, /\n\s+at /);
      if (args[0] === 'state') assert.match(r.stdout, /more than 10000 values once its aliases are expanded/);
    }
  });

  it('anchors or aliases in our block, flow-style frontmatter, or a non-map extensions: refused, file untouched', () => {
    const texts = [
      '---\nid: T02\nshared: &s {keep: me}\nextensions:\n  review-loop: *s\n---\nbody\n',
      '---\nid: T02\nextensions: &ext\n  review-loop:\n    cycle: 1\ncopy: *ext\n---\nbody\n',
      '---\n{id: T02, owner: alice, extensions: {other: 1}}\n---\nbody\n',
      '---\nid: T02\nextensions: [1, 2]  # someone else\'s\n---\nbody\n',
      '---\nid: T02\nextensions: keep-me\n---\nbody\n',
    ];
    for (const text of texts) {
      assert.throws(() => setExtensionBlock(text, 'review-loop', { cycle: 2 }), FrontmatterWriteError, text);
    }
  });

  it('bytes that are not UTF-8 (Latin-1, UTF-16) are never rewritten', () => {
    const latin1 = Buffer.from('---\nid: T01\nowner: Jos\xe9\n---\n# T01: Caf\xe9\n', 'latin1');
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('---\nid: T01\n---\n# T01\n', 'utf16le')]);
    for (const bytes of [latin1, utf16]) {
      // What the store hands the writer: the file read as UTF-8.
      assert.throws(() => setExtensionBlock(bytes.toString('utf8'), 'review-loop', { cycle: 1 }), /not UTF-8/);
    }
    // Through the CLI: a plan with hook state of an older version, which the first `next --apply`
    // moves out of it (rewriting the plan), once in UTF-8 (the positive control) and once in Latin-1.
    const plan = '---\nid: T01\nowner: Jos\xe9\nextensions:\n  review-loop:\n    cycle: 3\n---\n# T01: Caf\xe9\n';
    const apply = (bytes: Buffer) => {
      const root = project('id: T01\n');
      const planFile = path.join(root, TASKS, 'T01-PLAN.md');
      fs.writeFileSync(planFile, bytes);
      const r = runCli(cli, ['next', '--apply', '--json', '--root', root]);
      assert.equal(r.status, 0, r.stderr);
      const out = JSON.parse(r.stdout) as { written: string[]; diagnostics: { message: string }[] };
      return { planFile, written: out.written.map((f) => path.basename(f)), messages: out.diagnostics.map((d) => d.message), after: fs.readFileSync(planFile) };
    };
    const utf8 = apply(Buffer.from(plan, 'utf8'));
    assert.ok(utf8.written.includes('T01-PLAN.md'), `the UTF-8 plan was not rewritten: ${utf8.written.join(', ')}`);
    assert.equal(utf8.after.toString('utf8'), '---\nid: T01\nowner: Jos\xe9\n---\n# T01: Caf\xe9\n');
    const legacy = Buffer.from(plan, 'latin1');
    const latin = apply(legacy);
    assert.ok(latin.after.equals(legacy), 'the Latin-1 task plan was rewritten');
    assert.ok(!latin.written.includes('T01-PLAN.md'), latin.written.join(', '));
    assert.ok(
      latin.messages.some((m) => /T01-PLAN\.md not moved: the file is not UTF-8/.test(m)),
      `no line saying why T01-PLAN.md was left: ${latin.messages.join(' | ')}`,
    );
  });

  it('an ordinary block keeps every other key and comment byte for byte', () => {
    const text = '---\nid: T02   # the task\nowner: alice\nextensions:\n  other: {keep: "as written"}  # theirs\n---\nbody\n';
    const out = setExtensionBlock(text, 'review-loop', { cycle: 2 });
    assert.ok(out.startsWith('---\nid: T02   # the task\nowner: alice\nextensions:\n  other: {keep: "as written"}  # theirs\n'));
    assert.ok(out.endsWith('---\nbody\n'));
  });
});
