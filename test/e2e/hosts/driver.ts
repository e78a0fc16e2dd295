// What the scenarios need from a host: install it, trust (or not) the project the way its own trust
// store records it, and run one headless prompt against the scripted model.
import type { HostRun } from '../harness/run-host';
import type { World } from '../harness/project';
import type { ScriptedModel } from '../scripted-model/server';
import type { ToolDialect } from '../scenarios/dialect';

export interface HostDriver {
  /** e.g. "Claude Code 2.1.332". */
  title: string;
  /** `gsd-review install-hooks --host <hookHost>`. */
  hookHost: 'claude' | 'copilot-cli';
  tools: ToolDialect;
  install(): Promise<void>;
  trust(world: World, trusted: boolean): void;
  /** One `-p` run; `continueSession` resumes the most recent session (for `/compact`); `agent` runs it as that custom agent (`--agent`). */
  run(world: World, model: ScriptedModel, prompt: string, o: { label: string; continueSession?: boolean; timeoutMs?: number; agent?: string }): Promise<HostRun & { events: Record<string, any>[] }>;
}
