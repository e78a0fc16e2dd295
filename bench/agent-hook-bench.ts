// Wall time of one `gsd-review hook` process, as the agent pays it on every event, against a bare
// `node -e 0` in the same run (target within 2×).
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fmt, median, ratio } from './measure';

function hookMs(cli: string, payload: string, runs: number, cwd: string): number[] {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    execFileSync(process.execPath, [cli, 'hook'], { input: payload, cwd, stdio: ['pipe', 'ignore', 'ignore'] });
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return times;
}

export function agentHookBench(cli: string, root: string, tasks: number): void {
  const gsdDir = path.join(root, '.gsd');
  const payload = (event: string, extra: Record<string, unknown> = {}) => JSON.stringify({ hook_event_name: event, session_id: 'bench', cwd: root, ...extra });
  const bare: number[] = [];
  const preCompact: number[] = [];
  const subagentStop: number[] = [];
  for (let r = 0; r < 9; r++) {
    const t = process.hrtime.bigint();
    execFileSync(process.execPath, ['-e', '0']);
    bare.push(Number(process.hrtime.bigint() - t) / 1e6);
    // PreCompact writes the CONTINUE file once; remove it so every run does the same work.
    for (const f of fs.readdirSync(gsdDir, { recursive: true }).map(String).filter((f) => f.endsWith('-CONTINUE.md'))) fs.rmSync(path.join(gsdDir, f));
    preCompact.push(...hookMs(cli, payload('PreCompact', { trigger: 'auto' }), 1, root));
    subagentStop.push(...hookMs(cli, payload('SubagentStop', { agent_id: 'r1', agent_type: 'gsd-reviewer', stop_hook_active: false }), 1, root));
  }
  const b = median(bare);
  console.log(`\n## Agent hook process (${tasks.toLocaleString('en')} tasks; median of 9, interleaved)`);
  console.log(`node -e 0                         ${fmt(b)} ms`);
  console.log(`gsd-review hook  PreCompact       ${fmt(median(preCompact))} ms   ${ratio(median(preCompact), b)} node -e 0 (target ≤ 2×)`);
  console.log(`gsd-review hook  SubagentStop     ${fmt(median(subagentStop))} ms   ${ratio(median(subagentStop), b)} node -e 0 (target ≤ 2×)`);
}
