// The reviewer may not edit code in GSD's session of our gate: the guard's answers for the tools that
// session offers (gsd-pi 1.16.1, pi-coding-agent: read/grep/find/ls, write/edit {path}, bash
// {command}, GSD's gsd_* workflow tools), asked the way the guard extension asks (JSON on stdin of
// `gsd-review gate <task> --guard`), and the extension itself loaded as GSD loads it (an ES module
// whose default export registers a `tool_call` handler answering `{ block, reason }`).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildCli, cli } from './helpers/cli';
import { writeSuccessorLayout } from './helpers/successor-project';

const UNIT = 'M001/S02/T01';
const REVIEW = '.gsd/phases/01-checkout-flow/S02-T01-CODE-REVIEW.md';
const GATE = 'sh "$HOME/.gsd-review-loop/gsd-review" gate';

describe('successor gate: the reviewer\'s guard', function () {
  this.timeout(120_000);
  let script: string;
  let root: string;
  let home: string;
  before(async () => {
    script = await buildCli();
    ({ root } = writeSuccessorLayout({ 'src/payments/capture.ts': 'export const capture = 1;\n', [REVIEW]: '---\ntask: T01\ncycle: 1\nverdict: pending\n---\n## Issues\n\n## Notes\nNothing yet.\n' }));
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'guard-home-'));
    const r = cli(script, ['install-hooks', '--host', 'gsd', '--root', root], undefined, { HOME: home, GSD_HOME: path.join(home, '.gsd') });
    assert.equal(r.status, 0, r.stderr);
  });
  const judge = (toolName: string, input: Record<string, unknown>) => {
    const r = cli(script, ['gate', UNIT, '--guard', '--root', root], JSON.stringify({ toolName, input }), { HOME: home, GSD_HOME: path.join(home, '.gsd') });
    assert.equal(r.status, 0, r.stderr);
    return r.json as { block: boolean; reason?: string };
  };

  const allowed: Array<[string, Record<string, unknown>]> = [
    ['write', { path: REVIEW, content: '---\ntask: T01\n---\n' }],
    ['edit', { path: path.join('.', REVIEW), edits: [{ oldText: 'Nothing yet.', newText: 'Checked the capture path.' }] }],
    ['read', { path: 'src/payments/capture.ts' }],
    ['grep', { pattern: 'capture' }],
    ['bash', { command: `${GATE} ${UNIT}` }],
    ['bash', { command: `${GATE} ${UNIT} --done --json` }],
    ['bash', { command: 'git diff HEAD~1 -- src/payments' }],
    ['bash', { command: "grep -rn 'capture' src" }],
    ['bash', { command: 'find src -name "*.ts"' }],
  ];
  for (const [tool, input] of allowed) {
    it(`lets the reviewer ${tool} ${JSON.stringify(input).slice(0, 60)}`, () => {
      assert.deepEqual(judge(tool, input), { block: false });
    });
  }

  const refused: Array<[string, Record<string, unknown>, RegExp]> = [
    ['write', { path: 'src/payments/capture.ts', content: 'x' }, /writes only \.gsd\/phases\/01-checkout-flow\/S02-T01-CODE-REVIEW\.md/],
    ['edit', { path: '../outside.ts', oldText: 'a', newText: 'b' }, /is for the fix that follows the review/],
    ['write', { path: '.gsd/phases/01-checkout-flow/S02-T02-CODE-REVIEW.md', content: 'x' }, /writes only/],
    ['bash', { command: 'npm test > out.txt' }, /may change files/],
    ['bash', { command: `${GATE} M001/S02/T02 --done` }, /may change files/],
    ['bash', { command: 'git commit -am fix' }, /may change files/],
    ['bash', { command: 'git -c core.pager=sh log' }, /may change files/],
    ['bash', { command: "rg '--pre=sh' x" }, /may change files/],
    ['bash', { command: 'find . -name x -delete' }, /may change files/],
    ['bash', { command: 'cat a; rm -rf src' }, /may change files/],
    ['gsd_task_complete', { milestoneId: 'M001' }, /GSD's own tools \(gsd_task_complete\)/],
    ['gsd_rework_brief_save', {}, /GSD's own tools/],
    ['apply_patch', { input: '*** Begin Patch\n*** Update File: src/payments/capture.ts\n' }, /apply_patch is not one of the reviewer's tools/],
    ['shell_exec_everything', { path: 'src/x.ts' }, /is not one of the reviewer's tools/],
    // A child agent works unguarded; mcp_call reaches any configured server; these tools write files (hostile review, H1 and M1).
    ['subagent', { agent: 'worker', task: 'write greet.mjs', cwd: '/tmp' }, /a subagent would work unguarded/],
    ['mcp_call', { server: 'gsd', tool: 'gsd_task_complete', args: {} }, /mcp_call is not one of the reviewer's tools/],
    ['browser_generate_test', { outputPath: 'src/t.spec.ts' }, /not one of the reviewer's tools/],
    ['secure_env_collect', { envFilePath: 'src/x' }, /not one of the reviewer's tools/],
    // pi resolves these elsewhere than they read (hostile review, M2).
    ['write', { path: '~/.bashrc', content: 'x' }, /is for the fix/],
    ['write', { path: '@src/app.ts', content: 'x' }, /is for the fix/],
    // Planted names a glob would turn into options; options that write or run (hostile review, M7).
    ['bash', { command: 'find . -*' }, /may change files/],
    ['bash', { command: 'rg --hostname-bin=./tool.sh x .' }, /may change files/],
    ['bash', { command: 'file -C -m README' }, /may change files/],
    // A verdict of the reviewer's own: --done sets the one GSD reads (hostile review, H2).
    ['write', { path: REVIEW, content: '---\ntask: T01\ncycle: 1\nverdict: pass\n---\n## Issues\n' }, /leave the frontmatter line verdict: pending/],
    ['write', { path: REVIEW, content: '---\ntask: T01\nVerdict: Passed\n---\n' }, /leave the frontmatter line verdict: pending/],
    ['edit', { path: REVIEW, edits: [{ oldText: 'verdict: pending', newText: 'verdict: pass' }] }, /leave the frontmatter line verdict: pending/],
  ];
  for (const [tool, input, why] of refused) {
    it(`refuses ${tool} ${JSON.stringify(input).slice(0, 60)}`, () => {
      const a = judge(tool, input);
      assert.equal(a.block, true);
      assert.match(a.reason ?? '', why);
    });
  }

  it('a review file that is a link, out of the project or to GSD\'s own files, is not the review file', () => {
    const saved = fs.readFileSync(path.join(root, REVIEW));
    const outside = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'out-')), 'x.md');
    fs.writeFileSync(outside, 'x');
    try {
      for (const target of [outside, path.join(root, '.gsd', 'PREFERENCES.md')]) {
        fs.rmSync(path.join(root, REVIEW));
        fs.symlinkSync(target, path.join(root, REVIEW));
        assert.equal(judge('write', { path: REVIEW, content: '---\nverdict: pending\n---\n' }).block, true, target);
      }
    } finally {
      fs.rmSync(path.join(root, REVIEW));
      fs.writeFileSync(path.join(root, REVIEW), saved);
    }
  });

  it('a tool call it cannot read is refused (the review is running)', () => {
    const r = cli(script, ['gate', UNIT, '--guard', '--root', root], 'not json', { HOME: home });
    assert.equal(r.json.block, true);
    assert.match(r.json.reason, /could not be read/);
  });

  describe('the extension, loaded as GSD loads it', () => {
    type Handler = (event: { toolName: string; toolCallId: string; input: unknown }, ctx: { cwd: string }) => Promise<{ block: true; reason: string } | undefined>;
    let handler: Handler;
    before(async () => {
      const file = path.join(root, '.gsd', 'extensions', 'gsd-review-loop-guard.js');
      assert.ok(fs.existsSync(file), 'install put the guard where GSD loads project extensions');
      // As an ES module, as pi's loader imports it (a copy with .mjs: this test process is CommonJS).
      const copy = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ext-')), 'guard.mjs');
      fs.copyFileSync(file, copy);
      const mod = (await import(pathToFileURL(copy).href)) as { default: (pi: { on(event: string, h: Handler): void }) => void };
      mod.default({ on: (event, h) => event === 'tool_call' && (handler = h) });
      assert.ok(handler, 'a tool_call handler was registered');
    });
    const lock = (unitType: string) => fs.writeFileSync(path.join(root, '.gsd', 'auto.lock'), JSON.stringify({ pid: process.pid, startedAt: new Date().toISOString(), unitType, unitId: UNIT, unitStartedAt: new Date().toISOString() }));

    it('in the gate\'s session it refuses a source edit with the reason, and lets the review be written', async () => {
      const prev = process.env.HOME;
      process.env.HOME = home;
      try {
        lock('hook/gsd-review-loop');
        const no = await handler({ toolName: 'write', toolCallId: '1', input: { path: 'src/payments/capture.ts', content: 'x' } }, { cwd: root });
        assert.equal(no?.block, true);
        assert.match(no!.reason, /writes only/);
        assert.equal(await handler({ toolName: 'write', toolCallId: '2', input: { path: REVIEW, content: 'x' } }, { cwd: root }), undefined);
        // Other units (the task itself, another hook) are not ours to guard, but for the review files.
        lock('execute-task');
        assert.equal(await handler({ toolName: 'write', toolCallId: '3', input: { path: 'src/payments/capture.ts', content: 'x' } }, { cwd: root }), undefined);
        const forged = await handler({ toolName: 'write', toolCallId: '5', input: { path: REVIEW, content: '---\nverdict: pass\n---\n' } }, { cwd: root });
        assert.equal(forged?.block, true, 'the task under review does not write its own review (hostile review, H2)');
        assert.match(forged!.reason, /written by the reviewer in GSD's review gate, not in execute-task/);
        lock('hook/code-review');
        assert.equal(await handler({ toolName: 'write', toolCallId: '4', input: { path: 'src/payments/capture.ts', content: 'x' } }, { cwd: root }), undefined);
      } finally {
        process.env.HOME = prev;
        fs.rmSync(path.join(root, '.gsd', 'auto.lock'), { force: true });
      }
    });

    it('a lock another process left (a crash) or a repository committed guards nothing', async () => {
      const prev = process.env.HOME;
      process.env.HOME = home;
      try {
        fs.writeFileSync(path.join(root, '.gsd', 'auto.lock'), JSON.stringify({ pid: 999_999, unitType: 'hook/gsd-review-loop', unitId: UNIT }));
        assert.equal(await handler({ toolName: 'write', toolCallId: '1', input: { path: 'src/payments/capture.ts', content: 'x' } }, { cwd: root }), undefined);
        assert.equal(await handler({ toolName: 'bash', toolCallId: '2', input: { command: 'npm test' } }, { cwd: root }), undefined);
      } finally {
        process.env.HOME = prev;
        fs.rmSync(path.join(root, '.gsd', 'auto.lock'), { force: true });
      }
    });

    it('with no gsd-review on the machine it fails closed for all but reading', async () => {
      const prev = process.env.HOME;
      process.env.HOME = fs.mkdtempSync(path.join(os.tmpdir(), 'no-cli-'));
      try {
        lock('hook/gsd-review-loop');
        const no = await handler({ toolName: 'write', toolCallId: '1', input: { path: REVIEW, content: 'x' } }, { cwd: root });
        assert.equal(no?.block, true);
        assert.match(no!.reason, /could not judge write/);
        assert.equal(await handler({ toolName: 'read', toolCallId: '2', input: { path: 'src/payments/capture.ts' } }, { cwd: root }), undefined);
      } finally {
        process.env.HOME = prev;
        fs.rmSync(path.join(root, '.gsd', 'auto.lock'), { force: true });
      }
    });
  });
});
