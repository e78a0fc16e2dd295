// `npm run bench`: prints figures, never asserts. Every ratio is against a baseline measured in the
// same run on the same machine: reading every file of the tree, or a bare `node -e 0`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { deriveState, freshPartSource } from '../src/core/state/derive-state';
import { NodeGsdStore } from '../src/core/files/gsd-store';
import { locateProject } from '../src/core/state/locate-project';
import { ProjectFiles } from '../src/core/state/project-files';
import { StateIndex } from '../src/core/state/state-index';
import { generateTree, shapeFor } from './generate-tree';
import { agentHookBench } from './agent-hook-bench';
import { hostHooksBench } from './host-hooks-bench';
import { databaseBench } from './database-bench';
import { findingsBench } from './findings-bench';
import { frontmatterBench } from './frontmatter-bench';
import { parsersBench } from './parsers-bench';
import { hooksBench } from './hooks-bench';
import { refreshBench } from './refresh-bench';
import { scanningBench } from './scanning-bench';
import { successorGateBench } from './successor-gate-bench';
import { fmt, medianMsInterleaved, processMsInterleaved, ratio } from './measure';
import { readEveryFile } from './read-every-file';

const repoRoot = path.resolve(__dirname, '..', '..');
const benchDir = path.join(repoRoot, '.bench');
const cli = path.join(repoRoot, 'dist', 'cli.js');
const readAllScript = path.join(repoRoot, 'dist', 'bench', 'read-every-file-main.js');
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

function tree(tasks: number): { root: string; files: number; planned: number } {
  const root = path.join(benchDir, `tree-${tasks}`);
  const marker = path.join(root, '.generated');
  if (!fs.existsSync(marker)) {
    fs.rmSync(root, { recursive: true, force: true });
    const r = generateTree(root, shapeFor(tasks));
    fs.writeFileSync(marker, JSON.stringify(r));
  }
  const generated = JSON.parse(fs.readFileSync(marker, 'utf8'));
  return { root, files: generated.files, planned: generated.tasks };
}

function stateBench(tasks: number): number {
  const { root, files, planned } = tree(tasks);
  const project = locateProject(root)!;
  const [floor, cold, lazy] = medianMsInterleaved(15, [
    () => readEveryFile(project.gsdDir),
    () => deriveState(project, freshPartSource(new ProjectFiles(new NodeGsdStore()))),
    () => deriveState(project, freshPartSource(new ProjectFiles(new NodeGsdStore())), { lazy: true }),
  ]);
  const lazyFiles = new ProjectFiles(new NodeGsdStore());
  deriveState(project, freshPartSource(lazyFiles), { lazy: true });

  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const index = new StateIndex(project);
  const state = index.state();
  gc();
  const retainedMb = (process.memoryUsage().heapUsed - heapBefore) / 1048576;

  // One task file of the active slice changes, back and forth; time only changed() + state().
  const m = state.milestones.find((x) => x.id === state.activeMilestone?.id)!;
  const slice = m.slices.find((x) => x.id === state.activeSlice?.id)!;
  const target = slice.tasks[0].summaryFile!;
  const original = fs.readFileSync(target, 'utf8');
  const variants = [original.replace('verification_result: passed', 'verification_result: mixed'), original];
  let i = 0;
  const incremental = (() => {
    const times: number[] = [];
    for (let k = 0; k < 50; k++) {
      fs.writeFileSync(target, variants[i++ % 2]);
      const t = process.hrtime.bigint();
      index.changed(target);
      index.state();
      times.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    fs.writeFileSync(target, original);
    times.sort((a, b) => a - b);
    return times[25];
  })();

  const [nodeBare, floorProc, cliLazy, cliFull] = processMsInterleaved(11, [
    [process.execPath, ['-e', '0']],
    [process.execPath, [readAllScript, project.gsdDir]],
    [process.execPath, [cli, 'next', '--json', '--root', root]],
    [process.execPath, [cli, 'state', '--full', '--root', root]],
  ]);

  // The tree is shaped for `tasks` tasks (milestones × slices × tasks); only slices that are done,
  // active or next are planned yet, so fewer tasks exist as files.
  console.log(`\n## ${tasks.toLocaleString('en')}-task tree (${planned.toLocaleString('en')} tasks planned so far, ${files.toLocaleString('en')} files)`);
  console.log(`read every file (floor)           ${fmt(floor)} ms`);
  console.log(`cold full derive                  ${fmt(cold)} ms   ${ratio(cold, floor)} the floor (target ≤ 1.5×; medians of 15 after ≥ 300 ms of warm-up)`);
  console.log(`lazy derive (active unit only)    ${fmt(lazy)} ms   ${ratio(lazy, floor)} the floor; read ${lazyFiles.reads} of ${files} files`);
  console.log(`re-derive after one file changed  ${fmt(incremental)} ms   (target < 5 ms; median of 50)`);
  console.log(`heap kept by the StateIndex       ${retainedMb.toFixed(1)} MB`);
  console.log(`whole process: node -e 0          ${fmt(nodeBare)} ms`);
  console.log(`whole process: read every file    ${fmt(floorProc)} ms`);
  console.log(`whole process: cli next --json    ${fmt(cliLazy)} ms   ${ratio(cliLazy, floorProc / 2)} (read-every-file process ÷ 2; target ≤ 1×), ${ratio(cliLazy, nodeBare)} node -e 0`);
  console.log(`whole process: cli state --full   ${fmt(cliFull)} ms   ${ratio(cliFull, floorProc)} the read-every-file process (informational: a fresh process also compiles the code as it runs)`);
  return cold;
}

/** A project whose next unit is the review of T01 (GSD's file shapes, as the unit tests write them). */
function reviewProject(): string {
  // Run alone (GSD_BENCH_ONLY=host-hooks) nothing else has made the folder yet.
  fs.mkdirSync(benchDir, { recursive: true });
  const root = fs.mkdtempSync(path.join(benchDir, 'host-hooks-'));
  const S = '.gsd/milestones/M001/slices/S01';
  const files: Record<string, string> = {
    '.gsd/PREFERENCES.md': '---\ngsd_hooks:\n  enabled:\n    - name: review-loop\n---\n',
    '.gsd/milestones/M001/M001-ROADMAP.md': '# M001: Invoicing\n\n**Vision:** Invoicing works end to end.\n\n## Slices\n\n- [ ] **S01: Invoice PDFs** `risk:medium` `depends:[]`\n  > After this: Invoice PDFs can be demonstrated.\n',
    [`${S}/S01-PLAN.md`]: '# S01: Invoice PDFs\n\n**Goal:** Invoice PDFs.\n\n## Tasks\n\n- [x] **T01: Render invoice** `est:30m`\n  - Files: `src/t01.ts`\n  - Verify: `npm test -- --grep T01`\n- [ ] **T02: Attach logo** `est:30m`\n  - Files: `src/t02.ts`\n  - Verify: `npm test -- --grep T02`\n',
    [`${S}/tasks/T01-PLAN.md`]: '# T01: Render invoice\n',
    [`${S}/tasks/T02-PLAN.md`]: '# T02: Attach logo\n',
    [`${S}/tasks/T01-SUMMARY.md`]: '---\nid: T01\nparent: S01\nmilestone: M001\nkey_files:\n  - src/t01.ts\nkey_decisions:\n  - none\nduration: 25m\nverification_result: passed\ncompleted_at: 2026-11-20T10:00:00Z\nblocker_discovered: false\n---\n\n# T01: Render invoice\n\n**Did what T01 planned.**\n\n## What Happened\n\nImplemented.\n\n## Verification\n\n`npm test` passes.\n\n## Known Issues\n\nNone.\n\n## Files Created/Modified\n\n- `src/t01.ts` — implementation\n',
    'src/t01.ts': 'export const invoice = 1;\n',
  };
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}

async function main(): Promise<void> {
  const sizes = (process.env.GSD_BENCH_SIZES ?? '1000,10000').split(',').map(Number);
  console.log(`# GSD Review Loop benchmark — node ${process.version}, ${process.platform}/${process.arch}, ${new Date().toISOString()}`);
  // GSD_BENCH_ONLY=scanning|state|findings|hooks|agent-hooks|host-hooks|database|successor-gate: one part alone (seconds instead of minutes;
  // database: `state --json` on a GSD-2 database project).
  const only = process.env.GSD_BENCH_ONLY;
  const part = (name: string) => !only || only === name;
  if (part('scanning')) scanningBench();
  const largest = Math.max(...sizes);
  if (part('state')) {
    const coldDerive = new Map(sizes.map((n) => [n, stateBench(n)]));
    const project = locateProject(tree(largest).root)!;
    frontmatterBench(project.gsdDir, coldDerive.get(largest)!);
    await parsersBench(project.gsdDir, coldDerive.get(largest)!, () => deriveState(project, freshPartSource(new ProjectFiles(new NodeGsdStore()))));
  }
  // The findings table runs after the state tables of the same run (its re-derive is beside it).
  if (part('state') || part('findings')) findingsBench(tree(Math.min(...sizes)).root, benchDir);
  if (!only) {
    console.log('\n## Live refresh');
    await refreshBench(tree(largest).root, largest);
  }
  if (part('hooks')) await hooksBench(benchDir);
  const hookTree = sizes.includes(1000) ? 1000 : Math.min(...sizes);
  if (part('agent-hooks')) agentHookBench(cli, tree(hookTree).root, hookTree);
  // host-hooks: the processes each host starts for a reviewer's tool calls, with our files installed.
  if (part('host-hooks')) hostHooksBench(cli, reviewProject);
  // database: the size of the project GSD-2's own tools made (issue 38), then the largest tree's.
  if (part('database')) for (const tasks of new Set([2000, largest])) await databaseBench(repoRoot, benchDir, cli, tasks);
  // successor-gate: `gsd-review gate` in GSD's successor layout.
  if (part('successor-gate')) successorGateBench(cli, benchDir, largest);
}

void main();
