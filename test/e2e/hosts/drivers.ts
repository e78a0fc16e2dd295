// The two command-line hosts, as drivers for the scenarios.
import * as path from 'node:path';
// Versions as the installer has them: the one place that names them.
export const VERSIONS = { claude: '2.1.332', copilot: '1.0.102' } as const;

/** The installer is an ES module (the npm test scripts share it); loaded when a suite starts. */
const installer = () => import('../../../scripts/agent-hosts/install.mjs');
import { CLAUDE_TOOLS, COPILOT_TOOLS } from '../scenarios/dialect';
import * as claude from './claude-code';
import * as copilot from './copilot-cli';
import type { HostDriver } from './driver';

export function claudeCode(): HostDriver {
  let executable = '';
  return {
    title: `Claude Code ${VERSIONS.claude}`,
    hookHost: 'claude',
    tools: CLAUDE_TOOLS,
    install: async () => {
      const { installHost, HOSTS } = await installer();
      if (HOSTS.claude.version !== VERSIONS.claude) throw new Error(`the installer has Claude Code ${HOSTS.claude.version}, the suite ${VERSIONS.claude}`);
      executable = (await installHost('claude')).executable;
    },
    trust: claude.trustFolder,
    // acceptEdits and Bash allowed: a user's unattended `claude -p` that may edit and run commands
    // (without them every Write is refused before any hook of ours is asked).
    run: (world, model, prompt, o) =>
      claude.runClaude(executable, world, model, prompt, {
        label: o.label,
        ...(o.timeoutMs ? { timeoutMs: o.timeoutMs } : {}),
        args: ['--permission-mode', 'acceptEdits', '--allowedTools', 'Bash', ...(o.continueSession ? ['--continue'] : []), ...(o.agent ? ['--agent', o.agent] : [])],
      }),
  };
}

export function copilotCli(): HostDriver {
  let executable = '';
  let pkgCache = '';
  return {
    title: `Copilot CLI ${VERSIONS.copilot}`,
    hookHost: 'copilot-cli',
    tools: COPILOT_TOOLS,
    install: async () => {
      const { installHost, HOSTS, cacheDir } = await installer();
      if (HOSTS.copilot.version !== VERSIONS.copilot) throw new Error(`the installer has Copilot CLI ${HOSTS.copilot.version}, the suite ${VERSIONS.copilot}`);
      executable = (await installHost('copilot')).executable;
      pkgCache = path.join(cacheDir(), 'agent-hosts', 'copilot-pkg-cache');
    },
    trust: copilot.trustFolder,
    run: (world, model, prompt, o) =>
      copilot.runCopilot(executable, world, model, prompt, {
        label: o.label,
        pkgCache,
        ...(o.timeoutMs ? { timeoutMs: o.timeoutMs } : {}),
        args: [...(o.continueSession ? ['--continue'] : []), ...(o.agent ? ['--agent', o.agent] : [])],
      }),
  };
}
