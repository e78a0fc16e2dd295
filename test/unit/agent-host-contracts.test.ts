// Contract tests: the hook files as `install-hooks` writes them, run the way each host runs them
// (its command through `sh`, in the folder it uses, with its environment), payloads shaped as each
// host sends them, and every answer read by a re-implementation of that host's rules
// (helpers/host-rules.ts, which cites the hosts' code and documents).
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { applyFileChanges, readOrNull } from '../../src/core/files/file-changes';
import { TOOLS } from '../../src/core/hooks/lifecycle/edit-tools';
import { planInstall } from '../../src/core/agent-hooks/hook-install';
import { writeBridgePointer } from '../../src/core/agent-hooks/launcher';
import type { AgentHost } from '../../src/core/agent-hooks/agent-host';
import { dispatchLogFile } from '../../src/core/dispatch/dispatch-record';
import { buildCli } from './helpers/cli';
import { codeReview, roadmap, slicePlan, taskSummary, writeTree } from './helpers/gsd-tree';
import {
  claudeContext,
  claudePermission,
  copilotCliContext,
  copilotCliPermission,
  claudeStopReason,
  copilotCliStopReason,
  vscodeContext,
  vscodePermission,
  vscodeStopReasons,
  type CommandRun,
} from './helpers/host-rules';

const M = '.gsd/milestones/M001';
const S = `${M}/slices/S01`;
const TASKS = `${S}/tasks`;
const REVIEW = `${TASKS}/T01-CODE-REVIEW.md`;

function project(maxCycles = 5): string {
  return writeTree({
    '.gsd/PREFERENCES.md': `---\ngsd_hooks:\n  enabled:\n    - name: review-loop\n      options: { max_cycles: ${maxCycles} }\n---\n`,
    [`${M}/M001-ROADMAP.md`]: roadmap('M001', 'Invoicing', [{ id: 'S01', title: 'Invoice PDFs' }]),
    [`${S}/S01-PLAN.md`]: slicePlan('S01', 'Invoice PDFs', [{ id: 'T01', title: 'Render invoice', done: true }, { id: 'T02', title: 'Attach logo' }]),
    [`${TASKS}/T01-PLAN.md`]: '# T01: Render invoice\n',
    [`${TASKS}/T02-PLAN.md`]: '# T02: Attach logo\n',
    [`${TASKS}/T01-SUMMARY.md`]: taskSummary('T01', 'S01', 'M001', { completedAt: '2026-11-20T10:00:00Z' }),
    'src/invoice.ts': 'export const invoice = 1;\n',
  });
}

/** The review loop's record of T01 (its sidecar, or the plan frontmatter where older trees keep it). */
function loopState(root: string): string {
  return ['T01-HOOKS.md', 'T01-PLAN.md'].map((f) => readOrNull(path.join(root, TASKS, f)) ?? '').join('\n');
}

type HostName = 'vscode-local' | 'copilot-cli' | 'claude-code';
const INSTALL: Record<HostName, AgentHost> = { 'vscode-local': 'vscode', 'copilot-cli': 'copilot-cli', 'claude-code': 'claude' };

interface Installed {
  root: string;
  home: string;
  cli: string;
}

/** A PATH with a shell and `cat`, and no node (VS Code gives hooks no node). */
function pathWithoutNode(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-bin-'));
  for (const tool of ['sh', 'cat']) fs.symlinkSync(spawnSync('/bin/sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim(), path.join(dir, tool));
  return dir;
}

function install(root: string, host: AgentHost, home: string): void {
  const plan = planInstall({ root, host, user: false, home }, readOrNull);
  assert.deepEqual(plan.skipped, []);
  assert.deepEqual(applyFileChanges(plan.changes).conflicts, []);
}

/** The command our install wrote for `event`, as the host would read it from its file. */
function commandFor(root: string, host: HostName, event: string): string {
  if (host === 'claude-code') {
    const settings = JSON.parse(fs.readFileSync(path.join(root, '.claude/settings.json'), 'utf8'));
    return settings.hooks[event][0].hooks[0].command;
  }
  const file = JSON.parse(fs.readFileSync(path.join(root, '.github/hooks/gsd-review-loop.json'), 'utf8'));
  const entry = file.hooks[event][0];
  // Both take `linux` before `bash` before `command` (VS Code hookSchema.ts resolveEffectiveCommand; Copilot CLI 1.0.102 run live).
  return entry.linux ?? entry.bash ?? entry.command;
}

let sessionCounter = 0;
/** The payload each host sends for an event (common fields as each host documents them). */
function payload(host: HostName, root: string, event: string, fields: Record<string, unknown>, session: string): Record<string, unknown> {
  switch (host) {
    case 'vscode-local':
      // chatHookService.ts commonInput: timestamp, hook_event_name, session_id, transcript_path; cwd of the command.
      return { timestamp: new Date().toISOString(), hook_event_name: event, session_id: session, transcript_path: path.join(os.tmpdir(), `${session}.jsonl`), cwd: root, ...fields };
    case 'copilot-cli':
      // Copilot CLI 1.0.102 (run live): snake_case with an ISO timestamp, except SubagentStart:
      // camelCase, numeric timestamp and no event name (docs/agent-hooks.md).
      if (event === 'SubagentStart') return { sessionId: session, transcriptPath: path.join(os.tmpdir(), `${session}.jsonl`), timestamp: Date.now(), cwd: root, agentName: fields.agent_type, ...(fields.agent_id ? { agentId: fields.agent_id } : {}) };
      return { hook_event_name: event, session_id: session, timestamp: new Date().toISOString(), cwd: root, ...fields };
    case 'claude-code':
      // Claude Code: session_id, transcript_path, cwd, permission_mode, hook_event_name; no timestamp.
      return { session_id: session, transcript_path: path.join(os.tmpdir(), `${session}.jsonl`), cwd: root, permission_mode: 'default', hook_event_name: event, ...fields };
  }
}

/** Runs the installed command as the host does: through the shell, in the repository root. */
function runAs(host: HostName, inst: Installed, command: string, input: Record<string, unknown>, env: NodeJS.ProcessEnv = {}): CommandRun {
  // Copilot CLI sets COPILOT_CLI=1, COPILOT_PROJECT_DIR and CLAUDE_PROJECT_DIR for every hook (1.0.102, run live).
  const own = host === 'claude-code' ? { CLAUDE_PROJECT_DIR: inst.root } : host === 'copilot-cli' ? { COPILOT_CLI: '1', COPILOT_PROJECT_DIR: inst.root, CLAUDE_PROJECT_DIR: inst.root } : {};
  const hostEnv: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: inst.home, GSD_REVIEW_CLI: inst.cli, ...own, ...env };
  const r = spawnSync('/bin/sh', ['-c', command], { cwd: inst.root, input: JSON.stringify(input), encoding: 'utf8', env: hostEnv });
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** Whether the host keeps its agent working after this Stop answer, and with what reason. */
function keepsWorking(host: HostName, run: CommandRun, event: 'Stop' | 'SubagentStop' = 'Stop'): string | null {
  if (host === 'vscode-local') return vscodeStopReasons(event, [run])[0] ?? null;
  if (host === 'copilot-cli') return copilotCliStopReason(run);
  return claudeStopReason(run, true);
}

describe('agent-host contracts (installed files, host payloads, host rules)', function () {
  this.timeout(180_000);
  let cli: string;
  before(async () => {
    cli = await buildCli();
  });
  const setup = (host: HostName, maxCycles = 5): Installed => {
    const root = project(maxCycles);
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-home-'));
    install(root, INSTALL[host], home);
    return { root, home, cli };
  };

  for (const host of ['vscode-local', 'copilot-cli', 'claude-code'] as const) {
    describe(host, () => {
      /** A scripted agent that only ever asks to stop and does what a kept-working reason says. */
      function drive(inst: Installed, reviewFor: (cycle: number) => string): string[] {
        const session = `s${++sessionCounter}`;
        const stop = commandFor(inst.root, host, 'Stop');
        const transcript: string[] = [];
        let active = false;
        for (let turn = 0; turn < 30; turn++) {
          const run = runAs(host, inst, stop, payload(host, inst.root, 'Stop', { stop_hook_active: active }, session));
          assert.equal(run.status, 0, run.stderr);
          const reason = keepsWorking(host, run);
          if (!reason) return transcript;
          active = true;
          const review = /review cycle (\d+) of \d+ for T01/.exec(reason);
          if (review) {
            transcript.push(`review ${review[1]}`);
            fs.writeFileSync(path.join(inst.root, REVIEW), reviewFor(Number(review[1])));
          } else if (/fix the \d+ open issue\(s\) of T01, cycle (\d+)/.test(reason)) {
            transcript.push(`fix ${/cycle (\d+)/.exec(reason)![1]}`);
            fs.appendFileSync(path.join(inst.root, 'src/invoice.ts'), '// fixed\n');
          } else throw new Error(`unexpected reason: ${reason}`);
        }
        throw new Error('the agent never got to stop');
      }

      it('a scripted agent loops review → fix → review → approved through Stop alone', () => {
        const inst = setup(host);
        const transcript = drive(inst, (cycle) =>
          cycle < 2 ? codeReview('T01', cycle, 'changes-requested', [{ text: 'Totals are off by a cent.', location: 'src/invoice.ts:1' }]) : codeReview('T01', cycle, 'approved', [{ text: 'Totals are off by a cent.', resolved: true }]),
        );
        assert.deepEqual(transcript, ['review 1', 'fix 2', 'review 2']);
        assert.match(loopState(inst.root), /outcome:\n\s+cycles: 2\n\s+passed: true/);
      });

      it('a dispatched fix is not lost when the agent stops without working on it', () => {
        const inst = setup(host);
        const stop = commandFor(inst.root, host, 'Stop');
        const review = keepsWorking(host, runAs(host, inst, stop, payload(host, inst.root, 'Stop', { stop_hook_active: false }, 'a')));
        assert.match(review ?? '', /review cycle 1 of 5 for T01/);
        fs.writeFileSync(path.join(inst.root, REVIEW), codeReview('T01', 1, 'changes-requested', [{ text: 'Totals are off by a cent.', location: 'src/invoice.ts:1' }]));
        // The review is processed and the fix handed over in a block the host honours.
        const first = keepsWorking(host, runAs(host, inst, stop, payload(host, inst.root, 'Stop', { stop_hook_active: true }, 'a')));
        assert.match(first ?? '', /fix the 1 open issue\(s\) of T01, cycle 2/);
        // The user interrupts; the next stop is a new turn (not continuing because of us): the fix
        // was not done, so it is offered again rather than completed.
        const again = keepsWorking(host, runAs(host, inst, stop, payload(host, inst.root, 'Stop', { stop_hook_active: false }, 'a')));
        assert.match(again ?? '', /fix the 1 open issue\(s\) of T01, cycle 2/);
        const record = JSON.parse(fs.readFileSync(dispatchLogFile(path.join(inst.root, '.gsd')), 'utf8'));
        assert.equal(record.current.unitType, 'fix-task');
      });

      it('SubagentStart gives the review prompt to our reviewer only, never to `default`', () => {
        const inst = setup(host);
        const cmd = commandFor(inst.root, host, 'SubagentStart');
        const read = (run: CommandRun) => (host === 'claude-code' ? claudeContext('SubagentStart', run) : host === 'copilot-cli' ? copilotCliContext(run) : vscodeContext('SubagentStart', run));
        assert.equal(read(runAs(host, inst, cmd, payload(host, inst.root, 'SubagentStart', { agent_id: 'a1', agent_type: 'default' }, 'x'))), undefined);
        assert.equal(read(runAs(host, inst, cmd, payload(host, inst.root, 'SubagentStart', { agent_id: 'a1', agent_type: 'Plan' }, 'x'))), undefined);
        assert.match(read(runAs(host, inst, cmd, payload(host, inst.root, 'SubagentStart', { agent_id: 'a2', agent_type: 'gsd-reviewer' }, 'x'))) ?? '', /review cycle 1 of at most 5/);
      });

      it('SubagentStop processes the written review whatever the subagent is called, and keeps our reviewer working until it writes one', () => {
        const inst = setup(host);
        const start = commandFor(inst.root, host, 'SubagentStart');
        const stop = commandFor(inst.root, host, 'SubagentStop');
        runAs(host, inst, start, payload(host, inst.root, 'SubagentStart', { agent_id: 'a2', agent_type: 'gsd-reviewer' }, 'x'));
        const unwritten = runAs(host, inst, stop, payload(host, inst.root, 'SubagentStop', { agent_id: 'a2', agent_type: 'gsd-reviewer', stop_hook_active: false }, 'x'));
        const reason = host === 'vscode-local' ? vscodeStopReasons('SubagentStop', [unwritten])[0] : host === 'copilot-cli' ? copilotCliStopReason(unwritten) : claudeStopReason(unwritten);
        assert.match(reason ?? '', /write \.gsd\/milestones\/M001\/slices\/S01\/tasks\/T01-CODE-REVIEW\.md for review cycle 1/);
        fs.writeFileSync(path.join(inst.root, REVIEW), codeReview('T01', 1, 'approved', []));
        const agentType = host === 'vscode-local' ? 'default' : 'gsd-reviewer';
        const done = runAs(host, inst, stop, payload(host, inst.root, 'SubagentStop', { agent_id: 'a2', agent_type: agentType, stop_hook_active: true }, 'x'));
        assert.equal(keepsWorking(host, done, 'SubagentStop'), null);
        assert.match(loopState(inst.root), /passed: true/);
      });

      it('the review guard (a project-level PreToolUse) knows every edit tool of the host and reads every path field it sends', () => {
        const inst = setup(host);
        runAs(host, inst, commandFor(inst.root, host, 'SubagentStart'), payload(host, inst.root, 'SubagentStart', { agent_id: 'a', agent_type: 'gsd-reviewer' }, 'g'));
        const guard = commandFor(inst.root, host, 'PreToolUse');
        const ask = (tool: string, input: Record<string, unknown>) => {
          const run = runAs(host, inst, guard, payload(host, inst.root, 'PreToolUse', { tool_name: tool, tool_input: input, tool_use_id: 't1', agent_id: 'a', agent_type: 'gsd-reviewer' }, 'g'));
          assert.equal(run.status, 0, run.stderr);
          return host === 'claude-code' ? claudePermission(run).decision : host === 'copilot-cli' ? copilotCliPermission(run).decision : vscodePermission([run]).decision;
        };
        const review = path.join(inst.root, REVIEW);
        const code = path.join(inst.root, 'src/invoice.ts');
        const cases: Array<[string, Record<string, unknown>, string | undefined]> =
          host === 'claude-code'
            ? [
                ['Write', { file_path: review, content: 'x' }, 'allow'],
                ['Edit', { file_path: REVIEW, old_string: 'a', new_string: 'b' }, 'allow'],
                ['MultiEdit', { file_path: code, edits: [] }, 'deny'],
                ['NotebookEdit', { notebook_path: path.join(inst.root, 'n.ipynb'), new_source: '' }, 'deny'],
                ['Bash', { command: 'npm test' }, 'ask'],
                ['Read', { file_path: code }, undefined],
              ]
            : host === 'copilot-cli'
              ? [
                  // Claude Code's names with Copilot CLI's own fields (docs/agent-hooks.md).
                  ['Write', { path: review, file_text: 'x' }, 'allow'],
                  ['Write', { path: code, file_text: 'x' }, 'deny'],
                  ['Edit', { path: code, old_str: 'a', new_str: 'b' }, 'deny'],
                  ['Edit', { path: review, old_str: 'a', new_str: 'b' }, 'allow'],
                  ['create', { path: code, file_text: 'x' }, 'deny'],
                  ['edit', { path: code, old_str: 'a', new_str: 'b' }, 'deny'],
                  ['write', { path: code, file_text: 'x' }, 'deny'],
                  ['str_replace_editor', { command: 'str_replace', path: code, old_str: 'a', new_str: 'b' }, 'deny'],
                  ['str_replace_editor', { command: 'view', path: code }, undefined],
                  ['Bash', { command: 'echo x > src/invoice.ts' }, 'ask'],
                  ['bash', { command: 'echo x > src/invoice.ts' }, 'ask'],
                  ['powershell', { command: 'Set-Content src/invoice.ts x' }, 'ask'],
                  ['mcp__fs__write_file', { path: code, content: 'x' }, 'ask'],
                  // An indented header is still a header to a parser that trims lines.
                  ['apply_patch', { input: `*** Begin Patch\n*** Update File: ${review}\n@@\n-a\n+b\n  *** Update File: ${code}\n@@\n-1\n+2\n*** End Patch` }, 'deny'],
                  ['apply_patch', { input: `*** Begin Patch\n\t*** Update File: ${review}\n@@\n-a\n+b\n*** End Patch` }, 'allow'],
                  ['view', { path: code }, undefined],
                ]
              : [
                  ['create_file', { filePath: review, content: 'x' }, 'allow'],
                  ['replace_string_in_file', { filePath: code, oldString: 'a', newString: 'b' }, 'deny'],
                  ['insert_edit_into_file', { filePath: code, code: 'x', explanation: '' }, 'deny'],
                  ['edit_notebook_file', { filePath: path.join(inst.root, 'n.ipynb'), editType: 'insert' }, 'deny'],
                  ['multi_replace_string_in_file', { explanation: '', replacements: [{ filePath: review, oldString: 'a', newString: 'b' }] }, 'allow'],
                  ['multi_replace_string_in_file', { explanation: '', replacements: [{ filePath: review, oldString: 'a', newString: 'b' }, { filePath: code, oldString: 'a', newString: 'b' }] }, 'deny'],
                  ['create_directory', { dirPath: path.join(inst.root, 'src/new') }, 'deny'],
                  ['apply_patch', { input: `*** Begin Patch\n*** Update File: ${review}\n@@\n-a\n+b\n*** End Patch`, explanation: '' }, 'allow'],
                  ['apply_patch', { input: `*** Begin Patch\n*** Update File: ${review}\n@@\n-a\n+b\n*** Add File: ${code}\n+x\n*** End Patch`, explanation: '' }, 'deny'],
                  ['vscode_renameSymbol', { uri: pathToFileURL(code).href, line: 1, column: 14, newName: 'bill' }, 'deny'],
                  ['run_in_terminal', { command: 'npm test', explanation: '', isBackground: false }, 'ask'],
                  ['create_and_run_task', { task: { label: 'build', type: 'shell', command: 'npm run build' } }, 'ask'],
                  ['read_file', { filePath: code }, undefined],
                ];
        for (const [tool, input, want] of cases) assert.equal(ask(tool, input), want, `${tool} ${JSON.stringify(input).slice(0, 80)}`);
      });

      it('outside a review the guard never stands in the way, and asks nothing', () => {
        const inst = setup(host);
        const guard = commandFor(inst.root, host, 'PreToolUse');
        const tool = host === 'claude-code' ? ['Write', { file_path: path.join(inst.root, 'src/invoice.ts'), content: 'x' }] : host === 'copilot-cli' ? ['edit', { path: path.join(inst.root, 'src/invoice.ts'), old_str: 'a', new_str: 'b' }] : ['create_file', { filePath: path.join(inst.root, 'src/invoice.ts'), content: 'x' }];
        // No node and no CLI to be found: the launcher answers in the shell (a Node start would say so on stderr).
        const bare = { PATH: pathWithoutNode(), GSD_REVIEW_CLI: '' };
        const run = runAs(host, inst, guard, payload(host, inst.root, 'PreToolUse', { tool_name: tool[0], tool_input: tool[1] }, 'o'), bare);
        assert.deepEqual([run.status, run.stdout, run.stderr], [0, '', '']);
        // After a review completes (the record keeps it as `current`, with its completion time): the same.
        runAs(host, inst, commandFor(inst.root, host, 'SubagentStart'), payload(host, inst.root, 'SubagentStart', { agent_id: 'a', agent_type: 'gsd-reviewer' }, 'o'));
        fs.writeFileSync(path.join(inst.root, REVIEW), codeReview('T01', 1, 'approved', []));
        runAs(host, inst, commandFor(inst.root, host, 'SubagentStop'), payload(host, inst.root, 'SubagentStop', { agent_id: 'a', agent_type: 'gsd-reviewer', stop_hook_active: false }, 'o'));
        assert.match(fs.readFileSync(dispatchLogFile(path.join(inst.root, '.gsd')), 'utf8'), /"completedAt"/);
        const after = runAs(host, inst, guard, payload(host, inst.root, 'PreToolUse', { tool_name: tool[0], tool_input: tool[1] }, 'o'), bare);
        assert.deepEqual([after.status, after.stdout, after.stderr], [0, '', '']);
      });
    });
  }

  it('Copilot CLI: a Stop fired inside the reviewer is its SubagentStop: no fix cycle for it, and the main agent\'s Stop bound is untouched', () => {
    const inst = setup('copilot-cli');
    const stop = commandFor(inst.root, 'copilot-cli', 'Stop');
    const main = (active: boolean) => copilotCliStopReason(runAs('copilot-cli', inst, stop, payload('copilot-cli', inst.root, 'Stop', { stop_hook_active: active }, 'm')));
    // docs/agent-hooks.md: Stop also fires inside a subagent, carrying agent_id/agent_type/parent_agent_id.
    const inReviewer = (active: boolean) => copilotCliStopReason(runAs('copilot-cli', inst, stop, payload('copilot-cli', inst.root, 'Stop', { stop_hook_active: active, agent_id: 'r1', agent_type: 'gsd-reviewer', parent_agent_id: 'main' }, 'm')));
    assert.match(main(false) ?? '', /review cycle 1 of 5 for T01/);
    assert.match(copilotCliContext(runAs('copilot-cli', inst, commandFor(inst.root, 'copilot-cli', 'SubagentStart'), payload('copilot-cli', inst.root, 'SubagentStart', { agent_id: 'r1', agent_type: 'gsd-reviewer' }, 'm'))) ?? '', /review cycle 1 of at most 5/);
    // The reviewer stops before writing: it is told to write its review, never to fix.
    assert.match(inReviewer(false) ?? '', /write \.gsd\/milestones\/M001\/slices\/S01\/tasks\/T01-CODE-REVIEW\.md for review cycle 1/);
    fs.writeFileSync(path.join(inst.root, REVIEW), codeReview('T01', 1, 'changes-requested', [{ text: 'Totals are off by a cent.', location: 'src/invoice.ts:1' }]));
    assert.equal(inReviewer(true), null);
    // The main agent then gets the fix, twice if it stops without doing it: its bound was not used up.
    assert.match(main(true) ?? '', /fix the 1 open issue\(s\) of T01, cycle 2/);
    assert.match(main(false) ?? '', /fix the 1 open issue\(s\) of T01, cycle 2/);
    // Kept working on it, it stops again: the fix counts as done and review cycle 2 follows.
    assert.match(main(true) ?? '', /review cycle 2 of 5 for T01/);
  });

  it('Copilot CLI: a Stop between the main agent starting the reviewer (PreToolUse of task) and its SubagentStart is not handed the review again; a late reviewer edits nothing', () => {
    const inst = setup('copilot-cli');
    const cmd = (event: string) => commandFor(inst.root, 'copilot-cli', event);
    const main = (active: boolean) => copilotCliStopReason(runAs('copilot-cli', inst, cmd('Stop'), payload('copilot-cli', inst.root, 'Stop', { stop_hook_active: active }, 'r')));
    const preToolUse = (tool: string, input: Record<string, unknown>, agent: Record<string, unknown> = {}) =>
      copilotCliPermission(runAs('copilot-cli', inst, cmd('PreToolUse'), payload('copilot-cli', inst.root, 'PreToolUse', { tool_name: tool, tool_input: input, ...agent }, 'r')));
    assert.match(main(false) ?? '', /review cycle 1 of 5 for T01/);
    // The main agent starts the reviewer in the background (Copilot CLI 1.0.102's task tool, mode background).
    assert.equal(preToolUse('task', { agent_type: 'gsd-reviewer', name: 'gsd-reviewer', description: 'review', prompt: 'Review T01.', mode: 'background' }).decision, undefined);
    // Its turn ends before the reviewer's SubagentStart: no second "review it now".
    assert.equal(main(true), null);
    assert.match(copilotCliContext(runAs('copilot-cli', inst, cmd('SubagentStart'), payload('copilot-cli', inst.root, 'SubagentStart', { agent_id: 'r1', agent_type: 'gsd-reviewer' }, 'r'))) ?? '', /review cycle 1 of at most 5/);
    fs.writeFileSync(path.join(inst.root, REVIEW), codeReview('T01', 1, 'changes-requested', [{ text: 'Totals are off by a cent.', location: 'src/invoice.ts:1' }]));
    assert.equal(copilotCliStopReason(runAs('copilot-cli', inst, cmd('Stop'), payload('copilot-cli', inst.root, 'Stop', { stop_hook_active: false, agent_id: 'r1', agent_type: 'gsd-reviewer', parent_agent_id: 'main' }, 'r'))), null);
    assert.match(main(false) ?? '', /fix the 1 open issue\(s\) of T01, cycle 2/);
    // A reviewer still at work now that the unit is in its fix (started twice by a model): its edit of the source is refused.
    const inReviewer = { agent_id: 'r2', agent_type: 'gsd-reviewer', parent_agent_id: 'main' };
    const late = preToolUse('edit', { path: path.join(inst.root, 'src/invoice.ts'), old_str: '1', new_str: '2' }, inReviewer);
    assert.equal(late.decision, 'deny', JSON.stringify(late));
    assert.match(late.reason ?? '', /gsd-reviewer agent only writes the review of a review cycle in progress/);
    // The main agent's own fix goes through.
    assert.equal(preToolUse('edit', { path: path.join(inst.root, 'src/invoice.ts'), old_str: '1', new_str: '2' }).decision, undefined);
  });

  it('Claude Code: while our reviewer runs in the background the main agent\'s Stop is not blocked, and the completion turn gets the fix', () => {
    const inst = setup('claude-code');
    const stop = commandFor(inst.root, 'claude-code', 'Stop');
    const main = (active: boolean) => claudeStopReason(runAs('claude-code', inst, stop, payload('claude-code', inst.root, 'Stop', { stop_hook_active: active }, 'b')));
    assert.match(main(false) ?? '', /review cycle 1 of 5 for T01/);
    // The Agent tool starts the reviewer in the background (docs/agent-hooks.md).
    assert.ok(claudeContext('SubagentStart', runAs('claude-code', inst, commandFor(inst.root, 'claude-code', 'SubagentStart'), payload('claude-code', inst.root, 'SubagentStart', { agent_id: 'bg1', agent_type: 'gsd-reviewer' }, 'b'))));
    assert.equal(main(true), null);
    // A background-completion notice starts a new turn (stop_hook_active false): still no "review it now".
    assert.equal(main(false), null);
    fs.writeFileSync(path.join(inst.root, REVIEW), codeReview('T01', 1, 'changes-requested', [{ text: 'Totals are off by a cent.', location: 'src/invoice.ts:1' }]));
    const done = runAs('claude-code', inst, commandFor(inst.root, 'claude-code', 'SubagentStop'), payload('claude-code', inst.root, 'SubagentStop', { agent_id: 'bg1', agent_type: 'gsd-reviewer', stop_hook_active: false }, 'b'));
    assert.equal(claudeStopReason(done), null);
    assert.match(main(false) ?? '', /fix the 1 open issue\(s\) of T01, cycle 2/);
    // The same unit is not pushed a third time, whatever turns the host starts.
    assert.match(main(false) ?? '', /fix the 1 open issue\(s\) of T01, cycle 2/);
    assert.equal(main(false), null);
  });

  for (const host of ['vscode-local', 'copilot-cli', 'claude-code'] as const) {
    it(`${host}: during a review a tool call the bridge cannot read is asked, never let through; outside a review it is never stopped`, () => {
      const inst = setup(host);
      const guard = commandFor(inst.root, host, 'PreToolUse');
      const decision = (run: CommandRun) => (host === 'claude-code' ? claudePermission(run).decision : host === 'copilot-cli' ? copilotCliPermission(run).decision : vscodePermission([run]).decision);
      const broken = (): CommandRun => {
        const env = host === 'claude-code' ? { CLAUDE_PROJECT_DIR: inst.root } : host === 'copilot-cli' ? { COPILOT_CLI: '1', COPILOT_PROJECT_DIR: inst.root } : {};
        const r = spawnSync('/bin/sh', ['-c', guard], { cwd: inst.root, input: '{"hook_event_name": "PreToolUse", "tool_name": "Write", ', encoding: 'utf8', env: { PATH: process.env.PATH, HOME: inst.home, GSD_REVIEW_CLI: inst.cli, ...env } });
        return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
      };
      assert.equal(broken().stdout, '');
      runAs(host, inst, commandFor(inst.root, host, 'SubagentStart'), payload(host, inst.root, 'SubagentStart', { agent_id: 'a', agent_type: 'gsd-reviewer' }, 'f'));
      assert.equal(decision(broken()), 'ask');
    });
  }

  it('VS Code, a review in flight: for every tool of the guard\'s table, and payloads built to mislead the shell, the launcher gives the bridge\'s answer; the tools the guard never stops start no Node', () => {
    // VS Code ignores matchers: every tool call of the reviewer runs the installed PreToolUse command.
    const host = 'vscode-local';
    const inst = setup(host);
    runAs(host, inst, commandFor(inst.root, host, 'SubagentStart'), payload(host, inst.root, 'SubagentStart', { agent_id: 'a', agent_type: 'gsd-reviewer' }, 'v'));
    const guard = commandFor(inst.root, host, 'PreToolUse');
    const code = path.join(inst.root, 'src/invoice.ts');
    const inputOf = (kind: string): Record<string, unknown> =>
      kind === 'terminal' ? { command: 'npm test' } : kind === 'subagent' ? { agentName: 'Explore', prompt: 'look' } : { filePath: code, path: code, query: 'invoice' };
    const pre = (fields: Record<string, unknown>) => payload(host, inst.root, 'PreToolUse', fields, 'v');
    const readFile = JSON.stringify(pre({ tool_name: 'read_file', tool_input: { filePath: code } }));
    // [what, the payload's text, whether the shell answers it]
    const calls: Array<[string, string, boolean]> = Object.entries(TOOLS).map(([tool, spec]) => [tool, JSON.stringify(pre({ tool_name: tool, tool_input: inputOf(spec.kind) })), spec.kind === 'read']);
    const noName = { ...pre({}), tool_input: { filePath: code } };
    calls.push(
      // Other spellings a host may send: its camelCase key, an indented payload.
      ['view, named by toolName', JSON.stringify({ hookEventName: 'PreToolUse', sessionId: 'v', timestamp: Date.now(), cwd: inst.root, toolName: 'view', toolArgs: JSON.stringify({ path: code }) }), true],
      ['read_file, indented', JSON.stringify(pre({ tool_name: 'read_file', tool_input: { filePath: code } }), null, 2), true],
      // A read's name given twice (JSON.parse takes the last), spelled with an escape, or in a key that is not the tool's.
      ['read_file named twice', readFile.replace('"tool_name":"read_file"', '"tool_name":"read_file","tool_name":"create_file"'), false],
      ['read_file named by both keys', readFile.replace('"tool_name":"read_file"', '"tool_name":"read_file","toolName":"create_file"'), false],
      ['read_file spelled with an escape', readFile.replace('"read_file"', '"read\\u005ffile"'), false],
      ['create_file whose input names read_file', JSON.stringify(pre({ tool_name: 'create_file', tool_input: { filePath: code, content: '"tool_name":"read_file"', tool_name: 'read_file' } })), false],
      ['no tool name, read_file inside the input', JSON.stringify({ ...noName, tool_input: { tool_name: 'read_file', filePath: code } }), false],
      ['no tool name, read_file in another object', JSON.stringify({ meta: { tool_name: 'read_file' }, ...noName }), false],
      ['no tool name, read_file after a quote inside a key', JSON.stringify({ ...noName, 'x"tool_name': 'read_file' }), false],
      ['read_file after an array', JSON.stringify({ list: ['a'], ...pre({ tool_name: 'read_file', tool_input: { filePath: code } }) }), false],
      ['read_file with a longer name', readFile.replace('"read_file"', '"read_file_and_write"'), false],
      ['read_file over the shell\'s limit', JSON.stringify(pre({ tool_name: 'read_file', tool_input: { filePath: code, query: 'q'.repeat(20_000) } })), false],
      ['read_file over the bridge\'s limit', JSON.stringify(pre({ tool_name: 'read_file', tool_input: { filePath: code, query: 'q'.repeat(4 * 1024 * 1024 + 1) } })), false],
      ['an unknown tool', JSON.stringify(pre({ tool_name: 'mcp_fs_read', tool_input: { path: code } })), false],
    );
    const run = (command: string, text: string, env: NodeJS.ProcessEnv) => {
      const r = spawnSync('/bin/sh', ['-c', command], { cwd: inst.root, input: text, encoding: 'utf8', env: { HOME: inst.home, ...env }, maxBuffer: 64 * 1024 * 1024 });
      return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
    };
    const withCli = { PATH: process.env.PATH, GSD_REVIEW_CLI: cli };
    // No node and no CLI to be found: a Node start would say so on stderr.
    const bare = { PATH: pathWithoutNode(), GSD_REVIEW_CLI: '' };
    const decisions = new Set<string>();
    for (const [what, text, inShell] of calls) {
      const bridge = run(`node ${JSON.stringify(cli)} hook --host vscode --event PreToolUse`, text, withCli);
      const launcher = run(guard, text, withCli);
      const decision = vscodePermission([bridge]).decision;
      decisions.add(decision ?? 'none');
      assert.deepEqual([launcher.status, launcher.stdout, vscodePermission([launcher]).decision], [bridge.status, bridge.stdout, decision], `${what}: the launcher against the bridge`);
      const alone = run(guard, text, bare);
      if (inShell) assert.deepEqual([alone.status, alone.stdout, alone.stderr, decision], [0, '', '', undefined], `${what}: answered in the shell, as the bridge answers it`);
      else assert.match(alone.stderr, /no gsd-review CLI found/, `${what}: left to the bridge`);
    }
    // The review is in flight: the bridge denies, asks and lets through (a control that it guards at all).
    assert.deepEqual([...decisions].sort(), ['ask', 'deny', 'none']);
  });

  it('Copilot CLI runs our .claude entry as well: with our .github/hooks file there it stands aside without starting Node, and the .github one answers', () => {
    const root = project();
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-home-'));
    install(root, 'claude', home);
    install(root, 'copilot-cli', home);
    const inst = { root, home, cli };
    for (const event of ['Stop', 'PreToolUse', 'SessionStart']) {
      // No node on PATH and no CLI to find: a launcher that tried to start the bridge would say so on stderr.
      const aside = runAs('copilot-cli', inst, commandFor(root, 'claude-code', event), payload('copilot-cli', root, event, { stop_hook_active: false, tool_name: 'Write', tool_input: { path: 'src/invoice.ts' } }, 'd'), { PATH: pathWithoutNode(), GSD_REVIEW_CLI: '' });
      assert.deepEqual([aside.status, aside.stdout, aside.stderr], [0, '', ''], event);
    }
    assert.match(copilotCliStopReason(runAs('copilot-cli', inst, commandFor(root, 'copilot-cli', 'Stop'), payload('copilot-cli', root, 'Stop', { stop_hook_active: false }, 'd'))) ?? '', /review cycle 1 of 5 for T01/);
  });

  it('user-level hooks run no repository hook code: --untrusted in every command; a project\'s own install may', () => {
    const marker = (root: string) => path.join(root, 'repository-hook-ran');
    const withRepoHook = (): string => {
      const root = project();
      const m = marker(root);
      fs.writeFileSync(path.join(root, '.gsd/PREFERENCES.md'), `---\ngsd_hooks:\n  enabled:\n    - name: review-loop\n    - name: repo-policy\n      source: repo-policy\n---\n`);
      fs.mkdirSync(path.join(root, '.gsd/extensions/repo-policy'), { recursive: true });
      fs.writeFileSync(path.join(root, '.gsd/extensions/repo-policy/gsd-hooks.js'), `require('node:fs').writeFileSync(${JSON.stringify(m)}, 'ran');\nmodule.exports = function () {};\n`);
      return root;
    };
    const userRoot = withRepoHook();
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-home-'));
    const plan = planInstall({ root: userRoot, host: 'claude', user: true, home }, readOrNull);
    assert.deepEqual(applyFileChanges(plan.changes).conflicts, []);
    const settings = JSON.parse(fs.readFileSync(path.join(home, '.claude/settings.json'), 'utf8'));
    const userStop = settings.hooks.Stop[0].hooks[0].command as string;
    const r = runAs('claude-code', { root: userRoot, home, cli }, userStop, payload('claude-code', userRoot, 'Stop', { stop_hook_active: false }, 'u'));
    assert.equal(r.status, 0, r.stderr);
    assert.ok(!fs.existsSync(marker(userRoot)), 'a user-level hook ran the repository\'s hook code');
    // The same project with its own (project-level) install: its hook code is the project's choice.
    const projectRoot = withRepoHook();
    install(projectRoot, 'claude', home);
    runAs('claude-code', { root: projectRoot, home, cli }, commandFor(projectRoot, 'claude-code', 'Stop'), payload('claude-code', projectRoot, 'Stop', { stop_hook_active: false }, 'u'));
    assert.ok(fs.existsSync(marker(projectRoot)));
  });

  it('VS Code reading .claude/settings.json as well runs our bridge once per event', () => {
    const root = project();
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-home-'));
    install(root, 'claude', home);
    const inst = { root, home, cli };
    const claudeCommand = commandFor(root, 'claude-code', 'Stop');
    // Only the Claude Code file: VS Code runs it and gets an answer it acts on.
    const alone = runAs('vscode-local', inst, claudeCommand, payload('vscode-local', root, 'Stop', { stop_hook_active: false }, 'v'));
    assert.match(vscodeStopReasons('Stop', [alone])[0] ?? '', /review cycle 1 of 5 for T01/);
    // Both files: VS Code runs both entries; the .claude one stands aside, the .github one answers.
    install(root, 'vscode', home);
    const viaClaude = runAs('vscode-local', inst, claudeCommand, payload('vscode-local', root, 'Stop', { stop_hook_active: true }, 'v'));
    const viaGithub = runAs('vscode-local', inst, commandFor(root, 'vscode-local', 'Stop'), payload('vscode-local', root, 'Stop', { stop_hook_active: true }, 'v'));
    assert.equal(viaClaude.stdout, '');
    assert.equal(vscodeStopReasons('Stop', [viaClaude, viaGithub]).length, 1);
    // Claude Code itself, on the same file, is never turned away.
    assert.ok(claudeStopReason(runAs('claude-code', inst, claudeCommand, payload('claude-code', root, 'Stop', { stop_hook_active: false }, 'c'))));
  });

  it('an answer in the old top-level shape would not keep VS Code working (the reader is real)', () => {
    const topLevel: CommandRun = { status: 0, stdout: JSON.stringify({ decision: 'block', reason: 'review T01' }), stderr: '' };
    assert.deepEqual(vscodeStopReasons('Stop', [topLevel]), []);
    const both: CommandRun = { status: 0, stdout: JSON.stringify({ decision: 'block', reason: 'r', hookSpecificOutput: { hookEventName: 'Stop', decision: 'block', reason: 'r' } }), stderr: '' };
    assert.equal(claudeStopReason(both, true), null);
  });

  it('with a fix in flight the launcher gives the bridge\'s answer for every reviewer name the bridge accepts (reviewer_agent, any case, plugin-namespaced, JSON-escaped)', () => {
    for (const [reviewer, names] of [
      ['my-reviewer', ['my-reviewer', 'My-Reviewer', 'team-plugin:my-reviewer', 'my\\u002dreviewer']],
      [null, ['gsd-reviewer', 'GSD-Reviewer', 'team-plugin:gsd-reviewer']],
    ] as const) {
      for (const host of ['claude-code', 'copilot-cli'] as const) {
        const inst = setup(host);
        if (reviewer) fs.writeFileSync(path.join(inst.root, '.gsd/PREFERENCES.md'), `---\ngsd_hooks:\n  enabled:\n    - name: review-loop\n      options: { max_cycles: 5, reviewer_agent: ${reviewer} }\n---\n`);
        // The review asks for a fix: the unit in flight is T01's fix-task.
        const stop = commandFor(inst.root, host, 'Stop');
        assert.ok(keepsWorking(host, runAs(host, inst, stop, payload(host, inst.root, 'Stop', { stop_hook_active: false }, 'f'))));
        fs.writeFileSync(path.join(inst.root, REVIEW), codeReview('T01', 1, 'changes-requested', [{ text: 'Totals are off by a cent.', location: 'src/invoice.ts:1' }]));
        assert.match(keepsWorking(host, runAs(host, inst, stop, payload(host, inst.root, 'Stop', { stop_hook_active: true }, 'f'))) ?? '', /fix the 1 open issue/);
        const guard = commandFor(inst.root, host, 'PreToolUse');
        const env = host === 'claude-code' ? { CLAUDE_PROJECT_DIR: inst.root } : { COPILOT_CLI: '1', COPILOT_PROJECT_DIR: inst.root, CLAUDE_PROJECT_DIR: inst.root };
        const run = (command: string, text: string) => spawnSync('/bin/sh', ['-c', command], { cwd: inst.root, input: text, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: inst.home, GSD_REVIEW_CLI: cli, ...env } });
        const decision = (r: ReturnType<typeof run>) => (host === 'claude-code' ? claudePermission : copilotCliPermission)({ status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr }).decision;
        for (const name of [...names, 'Explore']) {
          const fields = host === 'claude-code' ? { tool_name: 'Write', tool_input: { file_path: path.join(inst.root, 'src/invoice.ts'), content: 'x' } } : { tool_name: 'edit', tool_input: { path: path.join(inst.root, 'src/invoice.ts'), old_str: '1', new_str: '2' } };
          // The name as the payload's text spells it (a JSON escape is read by the bridge as the letter).
          const text = JSON.stringify(payload(host, inst.root, 'PreToolUse', { ...fields, agent_id: 'r9', agent_type: '@NAME@' }, 'f')).replace('@NAME@', name);
          const bridge = decision(run(`node ${JSON.stringify(cli)} hook --host ${host === 'claude-code' ? 'claude' : 'vscode'} --event PreToolUse`, text));
          assert.equal(bridge, name === 'Explore' ? undefined : 'deny', `${host}, ${name}: the bridge`);
          assert.equal(decision(run(guard, text)), bridge, `${host}, reviewer_agent ${reviewer ?? '(default)'}, agent ${name}: the launcher`);
        }
      }
    }
  });

  for (const host of ['vscode-local', 'copilot-cli', 'claude-code'] as const) {
    it(`${host}: during a review a tool call made in a nested repository (vendor/lib with its own .git) is judged as the project's, and logged`, () => {
      const inst = setup(host);
      const lib = path.join(inst.root, 'vendor/lib');
      fs.mkdirSync(path.join(lib, '.git'), { recursive: true });
      fs.writeFileSync(path.join(lib, 'a.ts'), 'export const a = 1;\n');
      runAs(host, inst, commandFor(inst.root, host, 'SubagentStart'), payload(host, inst.root, 'SubagentStart', { agent_id: 'a', agent_type: 'gsd-reviewer' }, 'n'));
      const log = path.join(inst.root, '.gsd/gsd-review-loop/hooks.jsonl');
      const lines = () => (readOrNull(log) ?? '').split('\n').filter(Boolean).length;
      const before = lines();
      const fields = host === 'claude-code' ? { tool_name: 'Write', tool_input: { file_path: 'a.ts', content: 'x' } } : host === 'copilot-cli' ? { tool_name: 'edit', tool_input: { path: 'a.ts', old_str: '1', new_str: '2' } } : { tool_name: 'create_file', tool_input: { filePath: 'a.ts', content: 'x' } };
      const text = JSON.stringify({ ...payload(host, inst.root, 'PreToolUse', { ...fields, agent_id: 'a', agent_type: 'gsd-reviewer' }, 'n'), cwd: lib });
      // Claude Code runs a hook in the session's folder and names the project in CLAUDE_PROJECT_DIR; VS Code and Copilot CLI in the repository root.
      const env = host === 'claude-code' ? { CLAUDE_PROJECT_DIR: inst.root } : host === 'copilot-cli' ? { COPILOT_CLI: '1', COPILOT_PROJECT_DIR: inst.root, CLAUDE_PROJECT_DIR: inst.root } : {};
      const where = host === 'claude-code' ? lib : inst.root;
      const run = (command: string) => {
        const r = spawnSync('/bin/sh', ['-c', command], { cwd: where, input: text, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: inst.home, GSD_REVIEW_CLI: cli, ...env } });
        const out = { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
        return host === 'claude-code' ? claudePermission(out).decision : host === 'copilot-cli' ? copilotCliPermission(out).decision : vscodePermission([out]).decision;
      };
      assert.equal(run(commandFor(inst.root, host, 'PreToolUse')), 'deny', 'the installed launcher');
      assert.equal(lines(), before + 1, 'the launcher\'s call has its line in the hook log');
      if (host !== 'vscode-local') assert.equal(run(`node ${JSON.stringify(cli)} hook --host ${host === 'claude-code' ? 'claude' : 'vscode'} --event PreToolUse`), 'deny', 'gsd-review hook run in the same place');
    });
  }

  it('a user-level launcher finds the project CLAUDE_PROJECT_DIR names, from a nested repository that is a GSD project of its own', () => {
    const root = project();
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-home-'));
    assert.deepEqual(applyFileChanges(planInstall({ root, host: 'claude', user: true, home }, readOrNull).changes).conflicts, []);
    const command = (event: string) => JSON.parse(fs.readFileSync(path.join(home, '.claude/settings.json'), 'utf8')).hooks[event][0].hooks[0].command as string;
    const inst = { root, home, cli };
    runAs('claude-code', inst, command('SubagentStart'), payload('claude-code', root, 'SubagentStart', { agent_id: 'a', agent_type: 'gsd-reviewer' }, 'u'));
    // vendor/lib: its own repository and its own GSD project, with nothing in flight.
    const lib = path.join(root, 'vendor/lib');
    fs.mkdirSync(path.join(lib, '.git'), { recursive: true });
    fs.mkdirSync(path.join(lib, '.gsd'), { recursive: true });
    const text = JSON.stringify({ ...payload('claude-code', root, 'PreToolUse', { tool_name: 'Write', tool_input: { file_path: path.join(lib, 'a.ts'), content: 'x' }, agent_id: 'a', agent_type: 'gsd-reviewer' }, 'u'), cwd: lib });
    const decide = (cmd: string) => claudePermission((({ status, stdout, stderr }) => ({ status: status ?? -1, stdout, stderr }))(spawnSync('/bin/sh', ['-c', cmd], { cwd: lib, input: text, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: home, GSD_REVIEW_CLI: cli, CLAUDE_PROJECT_DIR: root } }))).decision;
    assert.equal(decide(command('PreToolUse')), 'deny');
    assert.equal(decide(`node ${JSON.stringify(cli)} hook --host claude --event PreToolUse --untrusted`), 'deny');
  });

  it('the launcher runs the bridge without node on PATH, with the runtime the extension recorded', () => {
    const inst = setup('vscode-local');
    writeBridgePointer(inst.home, process.execPath, cli);
    const run = runAs('vscode-local', inst, commandFor(inst.root, 'vscode-local', 'Stop'), payload('vscode-local', inst.root, 'Stop', { stop_hook_active: false }, 'n'), { PATH: pathWithoutNode(), GSD_REVIEW_CLI: '' });
    assert.equal(run.status, 0, run.stderr);
    assert.match(vscodeStopReasons('Stop', [run])[0] ?? '', /review cycle 1 of 5 for T01/);
  });

  it('the launcher finds the installed extension, and without any CLI exits 0 and says so', () => {
    const inst = setup('vscode-local');
    const ext = path.join(inst.home, '.vscode-server', 'extensions', 'gsd-review-loop.gsd-review-loop-0.1.0', 'dist');
    fs.mkdirSync(ext, { recursive: true });
    for (const f of fs.readdirSync(path.dirname(cli)).filter((f) => f.endsWith('.js'))) fs.copyFileSync(path.join(path.dirname(cli), f), path.join(ext, f));
    const stop = commandFor(inst.root, 'vscode-local', 'Stop');
    const found = runAs('vscode-local', inst, stop, payload('vscode-local', inst.root, 'Stop', { stop_hook_active: false }, 'e'), { GSD_REVIEW_CLI: '' });
    assert.match(vscodeStopReasons('Stop', [found])[0] ?? '', /review cycle 1 of 5 for T01/);
    fs.rmSync(path.join(inst.home, '.vscode-server'), { recursive: true });
    const none = runAs('vscode-local', inst, stop, payload('vscode-local', inst.root, 'Stop', { stop_hook_active: false }, 'e'), { GSD_REVIEW_CLI: '', PATH: pathWithoutNode() });
    assert.deepEqual([none.status, none.stdout], [0, '']);
    assert.match(none.stderr, /no gsd-review CLI found/);
  });
});
