// The agent-hook bridge through the CLI, as VS Code and Claude Code run it: recorded payloads of
// every event in both field spellings, hostile input, and a scripted agent driven only by hooks.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { claudeStopReason, vscodeStopReasons } from './helpers/host-rules';
import { buildCli, cli } from './helpers/cli';
import { snapshotTree } from './helpers/folder-snapshot';
import { codeReview, roadmap, slicePlan, taskSummary, writeTree } from './helpers/gsd-tree';

const M = '.gsd/milestones/M001';
const S = `${M}/slices/S01`;
const TASKS = `${S}/tasks`;

function project(maxCycles = 5): string {
  return writeTree({
    '.gsd/PREFERENCES.md': `---\ngsd_hooks:\n  enabled:\n    - name: review-loop\n      options: { max_cycles: ${maxCycles} }\n    - name: pending-actions\n---\n`,
    [`${M}/M001-ROADMAP.md`]: roadmap('M001', 'Invoicing', [{ id: 'S01', title: 'Invoice PDFs' }]),
    [`${S}/S01-PLAN.md`]: slicePlan('S01', 'Invoice PDFs', [{ id: 'T01', title: 'Render invoice', done: true }, { id: 'T02', title: 'Attach logo' }]),
    [`${TASKS}/T01-PLAN.md`]: '# T01: Render invoice\n',
    [`${TASKS}/T02-PLAN.md`]: '# T02: Attach logo\n',
    [`${TASKS}/T01-SUMMARY.md`]: taskSummary('T01', 'S01', 'M001', { completedAt: '2026-11-20T10:00:00Z', pendingActions: ['Embed the fonts'] }),
    'src/invoice.ts': 'export const invoice = 1;\n',
  });
}

/** The same event as VS Code (camelCase) and as Claude Code (snake_case) send it. */
function payloads(event: string, root: string, fields: Record<string, unknown> = {}): Array<[string, Record<string, unknown>]> {
  const snake: Record<string, unknown> = { hook_event_name: event, session_id: 'sess-1', cwd: root, transcript_path: path.join(root, 'transcript.jsonl'), permission_mode: 'default' };
  const camel: Record<string, unknown> = { hookEventName: event, sessionId: 'sess-1', cwd: root, timestamp: '2026-11-21T10:00:00Z' };
  for (const [k, v] of Object.entries(fields)) {
    snake[k] = v;
    camel[k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())] = v;
  }
  return [['claude-code', snake], ['vscode', camel]];
}

describe('agent hooks bridge (gsd-review hook)', function () {
  this.timeout(120_000);
  let gsd: string;
  before(async () => {
    gsd = await buildCli();
  });
  const hook = (payload: unknown, ...args: string[]) => {
    const r = cli(gsd, ['hook', ...args], typeof payload === 'string' ? payload : JSON.stringify(payload));
    assert.equal(r.status, 0, `exit ${r.status}: ${r.stderr}`);
    return r;
  };

  for (const spelling of ['claude-code', 'vscode']) {
    describe(`payloads in ${spelling} spelling`, () => {
      const pick = (event: string, root: string, fields?: Record<string, unknown>) => payloads(event, root, fields).find(([s]) => s === spelling)![1];

      it('SessionStart and UserPromptSubmit: context with the next unit and open pending actions', () => {
        const root = project();
        for (const event of ['SessionStart', 'UserPromptSubmit']) {
          const out = hook(pick(event, root, { prompt: 'continue', source: 'startup' })).json;
          assert.equal(out.hookSpecificOutput.hookEventName, event);
          assert.match(out.hookSpecificOutput.additionalContext, /Next unit: review-task M001\/S01\/T01 \(decided by review-loop\)/);
          assert.match(out.hookSpecificOutput.additionalContext, /- T01: Embed the fonts/);
        }
      });

      it('PreCompact: writes the slice CONTINUE file in GSD shape once, with the loop state', () => {
        const root = project();
        const first = hook(pick('PreCompact', root, { trigger: 'manual' }));
        // Claude Code appends a PreCompact hook's stdout to the compaction instructions: nothing there.
        if (spelling === 'claude-code') assert.equal(first.stdout, '');
        else assert.match(first.json.systemMessage, /saved the slice's state/);
        const text = fs.readFileSync(path.join(root, S, 'S01-CONTINUE.md'), 'utf8');
        assert.match(text, /^---\nmilestone: M001\nslice: S01\ntask: T02\nstatus: compacted\nsaved_at: \d{4}-/);
        for (const section of ['Completed Work', 'Remaining Work', 'Decisions Made', 'Context', 'Next Action']) assert.match(text, new RegExp(`## ${section}`));
        assert.match(text, /Next Action\n\nreview-task M001\/S01\/T01/);
        const again = hook(pick('PreCompact', root, { trigger: 'auto' }));
        if (spelling === 'claude-code') assert.equal(again.stdout, '');
        else assert.match(again.json.systemMessage, /already exists; left as it is/);
      });

      it('SubagentStart for the reviewer gets the review prompt; other agents get nothing', () => {
        const root = project();
        const reviewer = hook(pick('SubagentStart', root, { agent_id: 'a1', agent_type: 'gsd-reviewer' })).json;
        assert.equal(reviewer.hookSpecificOutput.hookEventName, 'SubagentStart');
        assert.match(reviewer.hookSpecificOutput.additionalContext, /Review task T01 \(Render invoice\) of slice M001\/S01: review cycle 1 of at most 5/);
        assert.equal(hook(pick('SubagentStart', root, { agent_id: 'a2', agent_type: 'explore' })).stdout, '');
      });

      it('PreToolUse during a review denies edits outside the review file', () => {
        const root = project();
        hook(pick('SubagentStart', root, { agent_id: 'a1', agent_type: 'gsd-reviewer' }));
        const deny = hook(pick('PreToolUse', root, { tool_name: 'Edit', tool_input: { file_path: path.join(root, 'src/invoice.ts') } })).json;
        assert.equal(deny.hookSpecificOutput.permissionDecision, 'deny');
        assert.match(deny.hookSpecificOutput.permissionDecisionReason, /only writes \.gsd\/milestones\/M001\/slices\/S01\/tasks\/T01-CODE-REVIEW\.md/);
        const allow = hook(pick('PreToolUse', root, { tool_name: 'Write', tool_input: { file_path: '.gsd/milestones/M001/slices/S01/tasks/T01-CODE-REVIEW.md' } })).json;
        assert.equal(allow.hookSpecificOutput.permissionDecision, 'allow');
        assert.equal(hook(pick('PreToolUse', root, { tool_name: 'Read', tool_input: { file_path: 'src/invoice.ts' } })).stdout, '');
      });

      it('SubagentStop for the reviewer processes the review and advances the loop', () => {
        const root = project();
        hook(pick('SubagentStart', root, { agent_id: 'a1', agent_type: 'gsd-reviewer' }));
        fs.writeFileSync(path.join(root, TASKS, 'T01-CODE-REVIEW.md'), codeReview('T01', 1, 'changes-requested', [{ text: 'Totals are off by a cent.', location: 'src/invoice.ts:1' }]));
        const out = hook(pick('SubagentStop', root, { agent_id: 'a1', agent_type: 'gsd-reviewer', stop_hook_active: false })).json;
        assert.match(out.systemMessage, /processed the review of M001\/S01\/T01, cycle 1/);
        assert.match(fs.readFileSync(path.join(root, TASKS, 'T01-HOOKS.md'), 'utf8'), /cycle: 2\n {6}status: fixing/);
      });

      it('Stop keeps the agent working on the review, with what to do next', () => {
        const root = project();
        const run = hook(pick('Stop', root, { stop_hook_active: false }));
        // Read as each host reads a Stop answer (helpers/host-rules.ts).
        const reason = spelling === 'vscode' ? vscodeStopReasons('Stop', [run])[0] : claudeStopReason(run, true);
        assert.match(reason ?? '', /^GSD review loop: review cycle 1 of 5 for T01\. Review it now/);
        assert.match(reason ?? '', /Write \.gsd\/milestones\/M001\/slices\/S01\/tasks\/T01-CODE-REVIEW\.md in exactly this format/);
      });

      it('PostToolUse, SessionEnd and ErrorOccurred answer nothing and change nothing', () => {
        const root = project();
        // Every file but the event log (and the .gitignore that comes with its folder): what "change
        // nothing" compares.
        const HOOK_LOG = path.join('.gsd', 'gsd-review-loop', 'hooks.jsonl');
        const logFolder = [HOOK_LOG, path.join('.gsd', 'gsd-review-loop', '.gitignore')];
        const tree = () => snapshotTree(root, (rel) => logFolder.includes(rel));
        const before = tree();
        for (const [event, fields] of [['PostToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' }, tool_response: { ok: true } }], ['SessionEnd', { reason: 'exit' }], ['ErrorOccurred', { error: 'model overloaded' }]] as const) {
          const r = hook(pick(event, root, fields));
          assert.equal(r.stdout, '', `${event} answered ${r.stdout}`);
        }
        assert.deepEqual(tree(), before);
        const log = fs.readFileSync(path.join(root, HOOK_LOG), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
        // Answered nothing because there was nothing to say, not because the bridge failed (an error logs answer "error").
        assert.deepEqual(
          log.map((e: { event: string; answer: string; error?: string }) => [e.event, e.answer, e.error]),
          [
            ['PostToolUse', 'none', undefined],
            ['SessionEnd', 'none', undefined],
            ['ErrorOccurred', 'none', undefined],
          ],
        );
        // Nothing moved on: the next Stop still asks for T01's first review, as before these events.
        const run = hook(pick('Stop', root, { stop_hook_active: false }));
        const reason = spelling === 'vscode' ? vscodeStopReasons('Stop', [run])[0] : claudeStopReason(run, true);
        assert.match(reason ?? '', /^GSD review loop: review cycle 1 of 5 for T01\./);
      });
    });
  }

  describe('malformed and hostile payloads: exit 0, no answer, nothing written outside .gsd', () => {
    const files = (root: string) => {
      const out: string[] = [];
      const walk = (d: string) => {
        for (const e of fs.readdirSync(d, { withFileTypes: true })) {
          const p = path.join(d, e.name);
          if (e.isDirectory()) walk(p);
          else out.push(path.relative(root, p));
        }
      };
      walk(root);
      return out.filter((f) => !f.startsWith('.gsd/')).sort();
    };
    const root = project();
    const cases: Array<[string, string]> = [
      ['not JSON', '{"hook_event_name": "Stop", '],
      ['an array', '[1, 2, 3]'],
      ['an unknown event', JSON.stringify({ hook_event_name: 'Teleport', cwd: root })],
      ['wrong field types', JSON.stringify({ hook_event_name: 'PreToolUse', cwd: root, tool_name: 42, tool_input: 'rm -rf /', session_id: { evil: true } })],
      ['a path outside the workspace', JSON.stringify({ hook_event_name: 'PreCompact', cwd: '/etc', transcript_path: '/etc/passwd' })],
      ['a tool path leaving the project', JSON.stringify({ hook_event_name: 'PreToolUse', cwd: root, tool_name: 'Write', tool_input: { file_path: '../../../../tmp/owned' } })],
      ['a huge payload (5 MB)', JSON.stringify({ hook_event_name: 'UserPromptSubmit', cwd: root, prompt: 'x'.repeat(5 * 1024 * 1024) })],
      ['no project at cwd', JSON.stringify({ hook_event_name: 'SessionStart', cwd: path.dirname(root) })],
    ];
    for (const [name, text] of cases) {
      it(name, () => {
        const before = files(root);
        const r = hook(text);
        assert.notEqual(r.status, 2);
        // No review is running: the bridge gates only the reviewer's tools (README, agent hooks), so even
        // the write leaving the project gets no answer from us (the host's own permissions apply).
        assert.equal(r.stdout, '', r.stdout);
        assert.deepEqual(files(root), before);
      });
    }

    it('a tool call over 4 MB while the reviewer works: asked by `gsd-review hook` as by the small entry (one rule), and a line on stderr', () => {
      const reviewing = project();
      hook({ hook_event_name: 'SubagentStart', session_id: 'rev', cwd: reviewing, agent_id: 'a1', agent_type: 'gsd-reviewer' });
      const huge = JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 'rev', cwd: reviewing, tool_name: 'Write', tool_input: { file_path: 'src/invoice.ts', content: 'x'.repeat(5 * 1024 * 1024) } });
      const before = files(reviewing);
      // As Claude Code runs it: the project named by CLAUDE_PROJECT_DIR, the payload unread.
      for (const entry of [[gsd, 'hook'], [path.join(path.dirname(gsd), 'hook.js')]]) {
        const r = cli(entry[0], [...entry.slice(1), '--host', 'claude', '--event', 'PreToolUse'], huge, { CLAUDE_PROJECT_DIR: reviewing });
        assert.equal(r.status, 0, r.stderr);
        assert.equal(r.json?.hookSpecificOutput?.permissionDecision, 'ask', `${path.basename(entry[0])}: ${r.stdout}`);
        assert.match(r.json.hookSpecificOutput.permissionDecisionReason, /could not be checked \(its payload is over 4 MB\)/);
        assert.equal(r.stderr, 'gsd-review hook: no payload (or over 4 MB) on stdin; nothing to do\n');
      }
      assert.deepEqual(files(reviewing), before);
    });

    it('a tool path leaving the project while the reviewer works: denied, and nothing written', () => {
      const reviewing = project();
      hook({ hook_event_name: 'SubagentStart', session_id: 'rev', cwd: reviewing, agent_id: 'a1', agent_type: 'gsd-reviewer' });
      const before = files(reviewing);
      const out = hook({ hook_event_name: 'PreToolUse', session_id: 'rev', cwd: reviewing, tool_name: 'Write', tool_input: { file_path: '../../../../tmp/owned' } }).json;
      assert.equal(out.hookSpecificOutput.permissionDecision, 'deny');
      assert.match(out.hookSpecificOutput.permissionDecisionReason, /only writes \.gsd\/milestones\/M001\/slices\/S01\/tasks\/T01-CODE-REVIEW\.md/);
      assert.deepEqual(files(reviewing), before);
    });
  });

  describe('a scripted agent driven only by hooks', () => {
    /** Plays the agent: asks to stop; when blocked, does what the reason says (as a reviewer or a fixer). */
    function drive(root: string, reviewFor: (cycle: number) => string, maxTurns = 30) {
      const transcript: string[] = [];
      let stopHookActive = false;
      for (let turn = 0; turn < maxTurns; turn++) {
        const out = hook({ hook_event_name: 'Stop', session_id: 'agent', cwd: root, stop_hook_active: stopHookActive }).json;
        if (!out || out.decision !== 'block') return transcript;
        stopHookActive = true;
        const review = /review cycle (\d+) of \d+ for T01/.exec(out.reason);
        if (review) {
          const cycle = Number(review[1]);
          transcript.push(`review ${cycle}`);
          fs.writeFileSync(path.join(root, TASKS, 'T01-CODE-REVIEW.md'), reviewFor(cycle));
        } else if (/fix the \d+ open issue\(s\) of T01, cycle (\d+)/.test(out.reason)) {
          transcript.push(`fix ${/cycle (\d+)/.exec(out.reason)![1]}`);
          fs.appendFileSync(path.join(root, 'src/invoice.ts'), '// fixed\n');
        } else {
          throw new Error(`unexpected reason: ${out.reason}`);
        }
      }
      throw new Error('the agent never got to stop');
    }
    const planBlock = (root: string) => fs.readFileSync(path.join(root, TASKS, 'T01-HOOKS.md'), 'utf8');

    it('drives a task through three review cycles to approval', () => {
      const root = project();
      const transcript = drive(root, (cycle) =>
        cycle < 3 ? codeReview('T01', cycle, 'changes-requested', [{ text: `Issue found in cycle ${cycle}`, location: 'src/invoice.ts:1' }]) : codeReview('T01', cycle, 'approved', [{ text: 'all fixed', resolved: true }]),
      );
      assert.deepEqual(transcript, ['review 1', 'fix 2', 'review 2', 'fix 3', 'review 3']);
      assert.match(planBlock(root), /outcome:\n {6}cycles: 3\n {6}passed: true/);
      assert.ok(['C1', 'C2', 'C3'].every((c) => fs.existsSync(path.join(root, TASKS, `T01-CODE-REVIEW-${c}.md`))));
    });

    it('stops at the cap when the reviewer never approves', () => {
      const root = project(3);
      const transcript = drive(root, (cycle) => codeReview('T01', cycle, 'changes-requested', [{ text: 'Still wrong', location: 'src/invoice.ts:1' }]));
      assert.deepEqual(transcript, ['review 1', 'fix 2', 'review 2', 'fix 3', 'review 3']);
      assert.match(planBlock(root), /outcome:\n {6}cycles: 3\n {6}passed: false/);
      assert.match(planBlock(root), /pendingActions:\n {6}- "?\[major\] src\/invoice.ts:1: Still wrong \(still open after review cycle 3\)"?/);
    });

    it('does not keep a stuck agent working a third time for the same unit', () => {
      const root = project();
      const first = hook({ hook_event_name: 'Stop', cwd: root, stop_hook_active: false }).json;
      assert.equal(first.decision, 'block');
      const second = hook({ hook_event_name: 'Stop', cwd: root, stop_hook_active: true }).json;
      assert.equal(second.decision, 'block');
      const third = hook({ hook_event_name: 'Stop', cwd: root, stop_hook_active: true });
      assert.doesNotMatch(third.stdout, /"decision":"block"/);
      assert.match(third.json.systemMessage, /not keeping the agent working a third time/);
      // Later Stops say the same and record nothing new, so the answer cache can give it.
      const lifecycle = path.join(root, '.gsd', 'gsd-review-loop', 'lifecycle.json');
      const recorded = fs.readFileSync(lifecycle, 'utf8');
      const fourth = hook({ hook_event_name: 'Stop', cwd: root, stop_hook_active: false });
      assert.equal(fourth.stdout, third.stdout);
      assert.equal(fs.readFileSync(lifecycle, 'utf8'), recorded);
    });
  });
});

describe('agent hooks with a symlinked .gsd', function () {
  this.timeout(60_000);
  it('reads the review and allows writing it through either path', async () => {
    const gsd = await buildCli();
    const real = project();
    const root = fs.mkdtempSync(path.join(path.dirname(real), 'gsd-linked-'));
    fs.symlinkSync(path.join(real, '.gsd'), path.join(root, '.gsd'));
    const hook = (p: Record<string, unknown>) => cli(gsd, ['hook'], JSON.stringify({ cwd: root, ...p })).json;
    hook({ hook_event_name: 'SubagentStart', agent_type: 'gsd-reviewer' });
    const viaLink = hook({ hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: path.join(root, TASKS, 'T01-CODE-REVIEW.md') } });
    const viaReal = hook({ hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: path.join(fs.realpathSync(real), TASKS, 'T01-CODE-REVIEW.md') } });
    assert.deepEqual([viaLink.hookSpecificOutput.permissionDecision, viaReal.hookSpecificOutput.permissionDecision], ['allow', 'allow']);
    fs.writeFileSync(path.join(root, TASKS, 'T01-CODE-REVIEW.md'), codeReview('T01', 1, 'approved', []));
    const stop = hook({ hook_event_name: 'SubagentStop', agent_type: 'gsd-reviewer' });
    assert.match(stop.systemMessage, /processed the review of M001\/S01\/T01, cycle 1/);
  });
});
