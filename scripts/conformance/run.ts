// `npm run conformance -- <scenarios.json or its folder> [--cli]`: builds each `.gsd` tree of GSD-2's
// own test corpus in a temporary folder, derives its state as `gsd-review state --json` does (the lazy
// path) and as the panel does (every slice), and compares both with what GSD-2 derived. One line per
// disagreement, then `N/M agree`; exit 1 when any tree disagrees. `--cli` runs the built CLI
// (`dist/cli.js state --json` and `--full`, after `npm run build`) instead of calling the core.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { deriveState, freshPartSource } from '../../src/core/state/derive-state';
import { NodeGsdStore } from '../../src/core/files/gsd-store';
import { readHookConfig } from '../../src/core/hooks/engine/hook-config';
import { locateProject } from '../../src/core/state/locate-project';
import { ProjectFiles } from '../../src/core/state/project-files';
import type { GSDState } from '../../src/core/model/types';
import { compareState, formatDisagreement, type Disagreement, type RecordedState } from './compare';
import { DESIGNED_DIFFERENCES, preferencesWithHooksDisabled } from './preferences';

interface Scenario {
  name: string;
  /** Text, or `{ base64 }` for bytes that are not text (a half-written, binary file). */
  files: Record<string, string | { base64: string }>;
  dirs?: string[];
  gsd2Recorded: RecordedState;
  gsdSymlink?: boolean;
  skip?: string | boolean;
}

function loadCorpus(arg: string): Scenario[] {
  const file = fs.statSync(arg).isDirectory() ? path.join(arg, 'scenarios.json') : arg;
  const data = JSON.parse(fs.readFileSync(file, 'utf8')) as { scenarios?: Scenario[] } | Scenario[];
  const list = Array.isArray(data) ? data : data.scenarios;
  if (!Array.isArray(list)) throw new Error(`${file}: no "scenarios" list`);
  return list;
}

/** Where a corpus path lands: `.gsd/…` goes to the real `.gsd` folder (elsewhere when symlinked). */
function place(root: string, realGsd: string, rel: string): string {
  const parts = rel.split('/');
  if (parts[0] !== '.gsd') return path.join(root, ...parts);
  return path.join(realGsd, ...parts.slice(1));
}

function buildTree(base: string, s: Scenario): string {
  const root = path.join(base, 'project');
  fs.mkdirSync(root, { recursive: true });
  // A `.git` marker keeps project lookup from walking above the temp folder.
  fs.mkdirSync(path.join(root, '.git'));
  let realGsd = path.join(root, '.gsd');
  if (s.gsdSymlink) {
    realGsd = path.join(base, 'external-state', '.gsd');
    fs.mkdirSync(realGsd, { recursive: true });
    fs.symlinkSync(realGsd, path.join(root, '.gsd'), 'dir');
  } else {
    fs.mkdirSync(realGsd, { recursive: true });
  }
  for (const d of s.dirs ?? []) if (d !== '.gsd') fs.mkdirSync(place(root, realGsd, d), { recursive: true });
  let prefsName = 'PREFERENCES.md';
  for (const [rel, content] of Object.entries(s.files)) {
    const abs = place(root, realGsd, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, typeof content === 'string' ? content : Buffer.from(content.base64, 'base64'));
    if (/^\.gsd\/preferences\.md$/i.test(rel)) prefsName = path.basename(rel);
  }
  const prefs = path.join(realGsd, prefsName);
  const existing = fs.existsSync(prefs) ? fs.readFileSync(prefs, 'utf8') : null;
  fs.writeFileSync(prefs, preferencesWithHooksDisabled(existing));
  return root;
}

/** The hooks left enabled by the tree's preferences, which must be neither designed difference. */
function enabledDesignedDifferences(gsdDir: string): string[] {
  const config = readHookConfig(new ProjectFiles(new NodeGsdStore()), gsdDir, DESIGNED_DIFFERENCES);
  return config.hooks.map((h) => h.name).filter((n) => (DESIGNED_DIFFERENCES as readonly string[]).includes(n));
}

const CLI = path.resolve(__dirname, '..', '..', 'dist', 'cli.js');

function cliState(root: string, full: boolean): GSDState {
  const args = [CLI, 'state', '--json', '--root', root, ...(full ? ['--full'] : [])];
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) throw new Error(`gsd-review state exited ${r.status ?? r.signal}: ${(r.stderr || '').trim()}`);
  return JSON.parse(r.stdout) as GSDState;
}

function deriveBoth(root: string, viaCli: boolean): { lazy: GSDState; full: GSDState } {
  if (viaCli) return { lazy: cliState(root, false), full: cliState(root, true) };
  const project = locateProject(root);
  if (!project) throw new Error(`no .gsd found at ${root}`);
  const lazy = deriveState(locateProject(root)!, freshPartSource(new ProjectFiles(new NodeGsdStore())), { lazy: true });
  const full = deriveState(project, freshPartSource(new ProjectFiles(new NodeGsdStore())));
  return { lazy, full };
}

function main(argv: string[]): number {
  const viaCli = argv.includes('--cli');
  const arg = argv.find((a) => !a.startsWith('--'));
  if (!arg) {
    process.stderr.write('usage: npm run conformance -- <path to scenarios.json or its folder> [--cli]\n');
    return 2;
  }
  if (viaCli && !fs.existsSync(CLI)) {
    process.stderr.write(`--cli needs the built CLI at ${CLI}: run npm run build first\n`);
    return 2;
  }
  const scenarios = loadCorpus(arg);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-conformance-'));
  const cleanup = () => fs.rmSync(tmp, { recursive: true, force: true });
  process.once('SIGINT', () => {
    cleanup();
    process.exit(130);
  });
  let agree = 0;
  let runnable = 0;
  const skipped: Array<{ name: string; why: string }> = [];
  try {
    scenarios.forEach((s, i) => {
      if (s.skip) {
        skipped.push({ name: s.name, why: typeof s.skip === 'string' ? s.skip : 'marked skip' });
        return;
      }
      runnable++;
      const base = path.join(tmp, String(i));
      let found: Array<{ d: Disagreement; mode?: string }>;
      try {
        const root = buildTree(base, s);
        const left = enabledDesignedDifferences(fs.realpathSync(path.join(root, '.gsd')));
        if (left.length > 0) throw new Error(`could not switch off ${left.join(', ')} in PREFERENCES.md`);
        const { lazy, full } = deriveBoth(root, viaCli);
        const lazyDiff = compareState(lazy, s.gsd2Recorded);
        const fullDiff = compareState(full, s.gsd2Recorded);
        found = lazyDiff.map((d) => ({ d }));
        // The panel's full read must agree too; report it only where it differs from the lazy one.
        for (const d of fullDiff) if (!lazyDiff.some((x) => x.field === d.field && x.ours === d.ours)) found.push({ d, mode: 'full read' });
      } catch (err) {
        found = [{ d: { field: 'error', ours: err instanceof Error ? err.message : String(err), gsd2: '(derived)' } }];
      } finally {
        fs.rmSync(base, { recursive: true, force: true });
      }
      if (found.length === 0) agree++;
      for (const { d, mode } of found) process.stdout.write(formatDisagreement(s.name, d, mode) + '\n');
    });
  } finally {
    cleanup();
  }
  if (skipped.length > 0) {
    process.stdout.write(`skipped ${skipped.length} marked skip in the corpus:\n`);
    for (const { name, why } of skipped) process.stdout.write(`  - ${name}: ${why}\n`);
  }
  process.stdout.write(`${agree}/${runnable} agree\n`);
  return agree === runnable ? 0 : 1;
}

process.exitCode = main(process.argv.slice(2));
