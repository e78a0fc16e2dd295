// `gsd-review install-hooks` / `uninstall-hooks --host vscode|claude|copilot-cli [--user] [--dry-run]`:
// the same plan as GSD: Install Agent Hooks, for people without VS Code.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AGENT_HOSTS, isAgentHost } from '../core/agent-hooks/agent-host';
import { applyFileChanges, readOrNull } from '../core/agent-hooks/file-changes';
import { planInstall, planUninstall, type FileChange } from '../core/agent-hooks/hook-install';
import { pointerFile, writeBridgePointer } from '../core/agent-hooks/launcher';
import { locateProject } from '../core/state/locate-project';
import { detectProjectKind, type ProjectKind } from '../core/successor/project-kind';
import { userHome } from '../core/files/user-home';

export interface InstallHooksCliOptions {
  root: string;
  host: string | undefined;
  user: boolean;
  dryRun: boolean;
  json: boolean;
  uninstall: boolean;
  home?: string;
}

export class InstallHooksUsageError extends Error {
  override name = 'InstallHooksUsageError';
}

function verb(c: FileChange): string {
  return c.after === null ? 'delete' : c.before === null ? 'create' : 'update';
}

export function runInstallHooksCommand(o: InstallHooksCliOptions): number {
  if (!isAgentHost(o.host)) throw new InstallHooksUsageError(`--host must be one of ${AGENT_HOSTS.join(', ')}`);
  const home = o.home ?? userHome();
  let root = path.resolve(o.root);
  let projectKind: ProjectKind | undefined;
  if (!o.user) {
    const project = locateProject(root);
    if (!project) throw new InstallHooksUsageError(`no .gsd folder at or above ${root}; give --root the project, or --user for your user-level files`);
    root = project.root;
    // A GSD-2 database project's VS Code agent also gets GSD's workflow MCP server (.vscode/mcp.json).
    projectKind = detectProjectKind(project.gsdDir).kind;
  }
  const options = { root, host: o.host, user: o.user, home, ...(projectKind ? { projectKind } : {}) };
  const plan = (o.uninstall ? planUninstall : planInstall)(options, readOrNull);
  const result = o.dryRun ? { applied: [] as FileChange[], conflicts: [] as string[] } : applyFileChanges(plan.changes, home);
  if (!o.dryRun && !o.uninstall && result.conflicts.length === 0) {
    // The machine-specific part (this runtime and CLI) goes to the user's home, never the repository;
    // an extension's pointer is newer than ours and stays.
    if (!fs.existsSync(pointerFile(home))) writeBridgePointer(home, process.execPath, path.join(__dirname, 'cli.js'));
  }
  // What was done (or, with --dry-run, would be): a change taken back because a later one failed is not.
  const done = new Set((o.dryRun ? plan.changes : result.applied).map((c) => c.file));
  if (o.json) {
    process.stdout.write(JSON.stringify({ host: o.host, user: o.user, dryRun: o.dryRun, changes: plan.changes.map((c) => ({ file: c.file, action: verb(c), purpose: c.purpose, done: !o.dryRun && done.has(c.file), ...(o.dryRun ? { text: c.after } : {}) })), skipped: plan.skipped, conflicts: result.conflicts, notes: plan.notes ?? [] }, null, 2) + '\n');
  } else {
    const rel = (f: string) => (o.user ? f : path.relative(root, f) || f);
    if (plan.changes.length === 0) process.stdout.write(o.uninstall ? 'Nothing of ours to remove.\n' : 'The agent hooks are installed and up to date.\n');
    for (const c of plan.changes.filter((x) => done.has(x.file))) {
      process.stdout.write(`${o.dryRun ? 'would ' : ''}${verb(c)} ${rel(c.file)}: ${c.purpose}\n`);
      if (o.dryRun && c.after !== null) process.stdout.write(`----- ${rel(c.file)}\n${c.after}${c.after.endsWith('\n') ? '' : '\n'}-----\n`);
    }
    for (const n of plan.notes ?? []) process.stdout.write(`note: ${n}\n`);
    for (const s of [...plan.skipped, ...result.conflicts]) process.stderr.write(`gsd-review: ${s}\n`);
  }
  return plan.skipped.length + result.conflicts.length > 0 ? 1 : 0;
}
