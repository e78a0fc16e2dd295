// What a host waits for on each agent event: the whole hook process, as the installed files run it
// (dist/hook.js, answering from its cache in the steady state; the full bridge when something
// changed), against a bare `node -e 0` in the same run (target: each event ≤ 1.15×). Then the time
// each host's install adds to an agent turn of 100 tool calls.
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fmt, median, ratio } from './measure';

type Payload = Record<string, unknown>;

function once(cmd: string, args: string[], input: string, cwd: string, env: NodeJS.ProcessEnv = process.env): number {
  const t = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { input, cwd, env, stdio: ['pipe', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

export function agentHookBench(cli: string, root: string, tasks: number): void {
  const hookJs = path.join(path.dirname(cli), 'hook.js');
  const vscode = (event: string, extra: Payload = {}): string => JSON.stringify({ timestamp: new Date().toISOString(), hook_event_name: event, session_id: 'bench', transcript_path: '/tmp/bench.jsonl', cwd: root, ...extra });
  const claude = (event: string, extra: Payload = {}): string => JSON.stringify({ session_id: 'bench', transcript_path: '/tmp/bench.jsonl', cwd: root, permission_mode: 'default', hook_event_name: event, ...extra });
  const events: Array<[string, string, string[], NodeJS.ProcessEnv?]> = [
    ['SessionStart', vscode('SessionStart', { source: 'new' }), ['--host', 'vscode']],
    ['UserPromptSubmit', vscode('UserPromptSubmit', { prompt: 'go on' }), ['--host', 'vscode']],
    ['PreToolUse read (reviewer)', vscode('PreToolUse', { tool_name: 'read_file', tool_input: { filePath: path.join(root, 'src/a.ts'), startLine: 1, endLine: 80 }, tool_use_id: 't' }), ['--host', 'vscode']],
    ['SubagentStart', vscode('SubagentStart', { agent_id: 'a', agent_type: 'gsd-reviewer' }), ['--host', 'vscode']],
    ['SubagentStop', vscode('SubagentStop', { agent_id: 'a', agent_type: 'gsd-reviewer', stop_hook_active: false }), ['--host', 'vscode']],
    ['Stop', vscode('Stop', { stop_hook_active: false }), ['--host', 'vscode']],
    ['Stop (Claude Code)', claude('Stop', { stop_hook_active: false }), ['--host', 'claude'], { ...process.env, CLAUDE_PROJECT_DIR: root }],
  ];
  // Warm the cache: a first run of each (our runtime folder appears), then, past the one second the
  // cache does not trust a fresh file time, a second that records the answer.
  for (const [, input, args, env] of events) once(process.execPath, [hookJs, ...args], input, root, env);
  execFileSync(process.execPath, ['-e', 'setTimeout(() => {}, 1100)']);
  for (const [, input, args, env] of events) once(process.execPath, [hookJs, ...args], input, root, env);

  const bare: number[] = [];
  const warm = events.map(() => [] as number[]);
  const full: number[] = [];
  const launcher: number[] = [];
  const launcherSh = path.join(root, '.bench-launcher.sh');
  fs.writeFileSync(launcherSh, `#!/bin/sh\nexport ELECTRON_RUN_AS_NODE=1\nexec "${process.execPath}" "${hookJs}" "$@"\n`);
  // SubagentStart and SubagentStop record the reviewer's run (so each runs the full bridge, once per
  // reviewer), which would also make every Stop after them a first Stop: they get rounds of their own.
  const subagent = (name: string) => name.startsWith('Subagent');
  const run = (r: number, i: number) => {
    const [name, input, args, env] = events[i];
    // A reviewer reads a different file each time: the answer for a tool that edits nothing is one.
    warm[i].push(once(process.execPath, [hookJs, ...args], name.startsWith('PreToolUse') ? input.replace('src/a.ts', `src/f${r}.ts`) : input, root, env));
  };
  for (let r = 0; r < 11; r++) {
    bare.push(once(process.execPath, ['-e', '0'], '', root));
    events.forEach(([name], i) => subagent(name) || run(r, i));
    launcher.push(once('/bin/sh', [launcherSh, '--host', 'vscode'], events[5][1], root));
    // The full bridge: what a host waits for when something it rests on just changed.
    full.push(once(process.execPath, [cli, 'hook', '--host', 'vscode'], events[5][1], root));
  }
  for (let r = 0; r < 11; r++) {
    bare.push(once(process.execPath, ['-e', '0'], '', root));
    events.forEach(([name], i) => subagent(name) && run(r, i));
  }
  fs.rmSync(launcherSh, { force: true });
  const b = median(bare);
  console.log(`\n## Agent hook processes (${tasks.toLocaleString('en')} tasks; medians of 11, interleaved; node -e 0 of both rounds)`);
  console.log(`node -e 0                                   ${fmt(b)} ms`);
  const per = new Map<string, number>();
  events.forEach(([name], i) => {
    const m = median(warm[i]);
    per.set(name, m);
    const target = subagent(name) ? 'informational: records the reviewer run, the full bridge' : 'target ≤ 1.15×';
    console.log(`hook.js ${name.padEnd(24)}            ${fmt(m)} ms   ${ratio(m, b)} node -e 0 (${target})`);
  });
  console.log(`sh launcher + hook.js Stop                  ${fmt(median(launcher))} ms   ${ratio(median(launcher), b)} node -e 0 (the command as installed)`);
  console.log(`full bridge Stop (something changed)        ${fmt(median(full))} ms   ${ratio(median(full), b)} node -e 0 (informational: once per change)`);

  // Which processes each install starts in one agent turn with 100 tool calls (README, per host).
  const stop = per.get('Stop')!;
  const prompt = per.get('UserPromptSubmit')!;
  const guard = per.get('PreToolUse read (reviewer)')!;
  const turns: Array<[string, number, string]> = [
    ['VS Code / Copilot CLI, any agent', prompt + stop, 'UserPromptSubmit + Stop; no per-tool hook'],
    ['VS Code, gsd-reviewer agent', prompt + stop + 100 * guard, '+ PreToolUse on every tool call (agent-scoped hooks match every tool); an edit runs the full bridge'],
    ['Claude Code, main agent', prompt + per.get('Stop (Claude Code)')!, 'UserPromptSubmit + Stop; no per-tool hook'],
    ['Claude Code, gsd-reviewer subagent', per.get('SubagentStart')! + per.get('SubagentStop')! + 100 * guard, 'PreToolUse only for Write|Edit|MultiEdit|NotebookEdit|Bash (here: all 100)'],
    ['earlier install (every event, every agent)', 2 * median(full) + 100 * 2 * median(full), 'the full CLI on PreToolUse and PostToolUse of every tool call'],
  ];
  console.log('\nadded to one agent turn of 100 tool calls:');
  // Also in units of a bare node start, which stays meaningful when this shared machine is loaded.
  for (const [name, ms, what] of turns) console.log(`  ${name.padEnd(44)} ${fmt(ms).padStart(6)} ms = ${(ms / b).toFixed(1).padStart(5)} × node -e 0   ${what}`);
}
