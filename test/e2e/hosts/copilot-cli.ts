// Copilot CLI, headless (`copilot -p … --output-format json`), offline against the scripted model
// as its bring-your-own-model provider (COPILOT_OFFLINE, COPILOT_PROVIDER_BASE_URL; docs/agent-hooks.md).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ScriptedModel } from '../scripted-model/server';
import type { World } from '../harness/project';
import { baseEnv, runHost, type HostRun, jsonLines } from '../harness/run-host';

export interface CopilotRun extends HostRun {
  /** The JSON-lines events Copilot CLI printed, in order. */
  events: Record<string, any>[];
}

/** Trusts (or not) the project in the temporary `~/.copilot/config.json`: repository hooks wait for trust. */
export function trustFolder(world: World, trusted: boolean): void {
  const dir = path.join(world.home, '.copilot');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'config.json');
  const config = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
  config.trustedFolders = trusted ? [world.project] : [];
  fs.writeFileSync(file, JSON.stringify(config, null, 2));
}

/**
 * The native executable unpacks its JavaScript (~235 MB) into a package cache on first start; one
 * cache beside the install serves every run instead of each temporary HOME.
 */
export async function runCopilot(executable: string, world: World, model: ScriptedModel, prompt: string, o: { label: string; pkgCache: string; timeoutMs?: number; args?: string[] }): Promise<CopilotRun> {
  const env = {
    ...baseEnv(world),
    COPILOT_OFFLINE: 'true',
    COPILOT_PROVIDER_BASE_URL: `${model.url}/v1`,
    COPILOT_PROVIDER_API_KEY: 'e2e-not-a-key',
    COPILOT_MODEL: 'scripted-model',
    COPILOT_AUTO_UPDATE: 'false',
    COPILOT_PKG_CACHE_HOME: o.pkgCache,
  };
  const run = await runHost({
    executable,
    args: ['-p', prompt, '--output-format', 'json', '--allow-all-tools', '--disable-client-telemetry', ...(o.args ?? [])],
    world,
    env,
    timeoutMs: o.timeoutMs ?? 120_000,
    label: o.label,
  });
  const events = jsonLines(run.stdout);
  return { ...run, events };
}
