// `gsd-review install-hooks` / `uninstall-hooks --host vscode|claude|copilot-cli [--user] [--dry-run]`:
// the same plan as GSD: Install Agent Hooks, for people without VS Code.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AGENT_HOSTS, isAgentHost } from '../core/agent-hooks/agent-host';
import { applyFileChanges, readOrNull } from '../core/files/file-changes';
import { planInstall, planUninstall, type FileChange } from '../core/agent-hooks/hook-install';
import { pointerFile, writeBridgePointer } from '../core/agent-hooks/launcher';
import { locateProject } from '../core/state/locate-project';
import { detectProjectKind, type ProjectKind } from '../core/state/project-kind';
import { userHome } from '../core/files/user-home';
import { planGateInstall, planGateUninstall } from '../core/successor-gate/gate-install';

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

/**
 * What a plan did (or, with --dry-run, would do): each file with its purpose, then notes; refusals on
 * stderr. A change taken back because a later one failed is not listed as done.
 */
function reportPlan(o: InstallHooksCliOptions, root: string, changes: FileChange[], applied: FileChange[], skipped: string[], conflicts: string[], notes: string[], upToDate: string): void {
  const done = new Set((o.dryRun ? changes : applied).map((c) => c.file));
  if (o.json) {
    process.stdout.write(JSON.stringify({ host: o.host, user: o.user, dryRun: o.dryRun, changes: changes.map((c) => ({ file: c.file, action: verb(c), purpose: c.purpose, done: !o.dryRun && done.has(c.file), ...(o.dryRun ? { text: c.after } : {}) })), skipped, conflicts, notes }, null, 2) + '\n');
    return;
  }
  const rel = (f: string) => (o.user || !f.startsWith(root + path.sep) ? f : path.relative(root, f));
  if (changes.length === 0) process.stdout.write(`${upToDate}\n`);
  for (const c of changes.filter((x) => done.has(x.file))) {
    process.stdout.write(`${o.dryRun ? 'would ' : ''}${verb(c)} ${rel(c.file)}: ${c.purpose}\n`);
    if (o.dryRun && c.after !== null) process.stdout.write(`----- ${rel(c.file)}\n${c.after}${c.after.endsWith('\n') ? '' : '\n'}-----\n`);
  }
  for (const n of notes) process.stdout.write(`note: ${n}\n`);
  for (const s of [...skipped, ...conflicts]) process.stderr.write(`gsd-review: ${s}\n`);
}

/** GSD's successor (@opengsd/gsd-pi) as a host: our review loop as its blocking post-unit gate. */
export const GATE_HOST = 'gsd';

function verb(c: FileChange): string {
  return c.after === null ? 'delete' : c.before === null ? 'create' : 'update';
}

export function runInstallHooksCommand(o: InstallHooksCliOptions): number {
  if (o.host === GATE_HOST) return runGateInstall(o);
  if (!isAgentHost(o.host)) throw new InstallHooksUsageError(`--host must be one of ${[...AGENT_HOSTS, GATE_HOST].join(', ')}`);
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
  reportPlan(o, root, plan.changes, result.applied, plan.skipped, result.conflicts, plan.notes ?? [], o.uninstall ? 'Nothing of ours to remove.' : 'The agent hooks are installed and up to date.');
  return plan.skipped.length + result.conflicts.length > 0 ? 1 : 0;
}

/** `--host gsd`: the gate entry in the PREFERENCES.md GSD reads (the project's, or with --user the user's). */
function runGateInstall(o: InstallHooksCliOptions): number {
  const home = o.home ?? userHome();
  let gsdDir = '';
  let root = path.resolve(o.root);
  if (!o.user) {
    const project = locateProject(root);
    if (!project) throw new InstallHooksUsageError(`no .gsd folder at or above ${root}; give --root the project, or --user for your GSD preferences (~/.gsd)`);
    const kind = detectProjectKind(project.gsdDir).kind;
    if (kind !== 'successor') {
      throw new InstallHooksUsageError(`--host gsd is for projects of GSD's successor (@opengsd/gsd-pi 1.x); ${project.root} is a ${kind === 'gsd2-database' ? 'GSD-2 database' : 'markdown'} project, where the review loop runs through gsd-review next (use --host vscode, claude or copilot-cli)`);
    }
    root = project.root;
    // Files named through the project's own .gsd (a link once GSD moved it to its state folder), so that
    // what install records (the folders it made) is what uninstall finds; writes are confined to the real one.
    gsdDir = project.gsdLink;
  }
  const options = { gsdDir, user: o.user, home, ...(process.env.GSD_HOME ? { gsdHome: process.env.GSD_HOME } : {}) };
  const plan = (o.uninstall ? planGateUninstall : planGateInstall)(options, readOrNull);
  // With the home folder: folders the install creates (.gsd/extensions) are recorded, and uninstall removes them once empty.
  // All or nothing (applyFileChanges): the gate is its entries, its guard and its launcher together.
  const result = o.dryRun ? { applied: [] as FileChange[], conflicts: [] as string[] } : applyFileChanges(plan.changes, home);
  const refused = plan.skipped.length + result.conflicts.length > 0;
  if (!o.dryRun && !o.uninstall && !refused) {
    // The gate's launcher finds this CLI through the pointer, as the agent-hook launcher does.
    if (!fs.existsSync(pointerFile(home))) writeBridgePointer(home, process.execPath, path.join(__dirname, 'cli.js'));
  }
  const nothing = o.uninstall ? 'Nothing of ours to remove.' : refused ? 'The review gate is not installed.' : 'The review gate is installed and up to date.';
  reportPlan(o, root, plan.changes, result.applied, plan.skipped, result.conflicts, plan.notes, nothing);
  return plan.skipped.length + result.conflicts.length > 0 ? 1 : 0;
}
