// Claude Code, headless (`claude -p … --output-format stream-json --verbose`), pointed at the scripted
// model with ANTHROPIC_BASE_URL and no traffic anywhere else (docs/agent-hooks.md).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ScriptedModel } from '../scripted-model/server';
import type { World } from '../harness/project';
import { baseEnv, runHost, type HostRun, jsonLines } from '../harness/run-host';

export interface ClaudeRun extends HostRun {
  /** The stream-json events Claude Code printed, in order. */
  events: Record<string, any>[];
}

/**
 * Marks the project trusted in the temporary `~/.claude.json` (what accepting the trust dialog
 * writes): agent-file hooks, our reviewer's guard among them, run only in a trusted folder.
 */
export function trustFolder(world: World, trusted: boolean): void {
  const file = path.join(world.home, '.claude.json');
  const config = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
  config.hasCompletedOnboarding = true;
  config.projects = { ...config.projects, [world.project]: { ...config.projects?.[world.project], hasTrustDialogAccepted: trusted } };
  fs.writeFileSync(file, JSON.stringify(config, null, 2));
}

export async function runClaude(executable: string, world: World, model: ScriptedModel, prompt: string, o: { label: string; timeoutMs?: number; args?: string[] }): Promise<ClaudeRun> {
  const env = {
    ...baseEnv(world),
    ANTHROPIC_BASE_URL: model.url,
    ANTHROPIC_API_KEY: 'sk-ant-e2e-not-a-key',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
  };
  const run = await runHost({
    executable,
    args: ['-p', prompt, '--output-format', 'stream-json', '--verbose', ...(o.args ?? [])],
    world,
    env,
    timeoutMs: o.timeoutMs ?? 120_000,
    label: o.label,
  });
  const events = jsonLines(run.stdout);
  return { ...run, events };
}
