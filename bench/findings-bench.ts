// Review findings where the code is (issue 26): a project with 2,000 open findings across 300 source
// files; after a state change (one issue of one review ticked), the time to re-derive and to have the
// threads of the one visible editor ready (the findings index, that file's findings, their lines).
// Target: the paint part ≤ 50 ms. Also counts the files opened while painting (target: none).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { locateProject } from '../src/core/state/locate-project';
import { StateIndex } from '../src/core/state/state-index';
import { reviewFindings } from '../src/core/reviews/review-findings';
import { lineAfterEdits } from '../src/core/reviews/line-tracking';
import { fmt } from './measure';

const FINDINGS = 2000;
const SOURCE_FILES = 300;

function reviewsOf(gsdDir: string): string[] {
  const out: string[] = [];
  for (const rel of fs.readdirSync(gsdDir, { recursive: true }).map(String)) if (/-CODE-REVIEW\.md$/.test(rel)) out.push(path.join(gsdDir, rel));
  return out.sort();
}

/** A copy of the generated tree whose live reviews carry the findings, each in a cycle of its own. */
function findingsTree(source: string, dir: string): { root: string; reviews: string[] } {
  const marker = path.join(dir, '.findings');
  if (!fs.existsSync(marker)) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.cpSync(source, dir, { recursive: true });
    const reviews = reviewsOf(path.join(dir, '.gsd'));
    const perReview = Math.ceil(FINDINGS / reviews.length);
    let n = 0;
    reviews.forEach((file) => {
      const tid = /(T\d+)-CODE-REVIEW\.md$/.exec(file)![1];
      const issues: string[] = [];
      for (let i = 0; i < perReview && n < FINDINGS; i++, n++) {
        issues.push(`- [ ] **${n % 3 ? 'minor' : 'major'}** \`src/module-${n % SOURCE_FILES}.ts:${10 + (n % 90)}\` Finding ${n}: the error path is not tested.`);
      }
      fs.writeFileSync(file, `---\ntask: ${tid}\ncycle: 3\nverdict: changes-requested\n---\n# Code review: ${tid} (cycle 3)\n\n## Issues\n\n${issues.join('\n')}\n\n## Notes\n\nMany findings.\n`);
    });
    fs.writeFileSync(marker, String(n));
  }
  return { root: dir, reviews: reviewsOf(path.join(dir, '.gsd')) };
}

/** Counts files opened or read whole while `fn` runs (patched on the module object every import reads through). */
function opensDuring(fn: () => void): number {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the mutable module object, not the import binding
  const nodeFs = require('node:fs') as Record<'openSync' | 'readFileSync', (...a: unknown[]) => unknown>;
  const saved = { openSync: nodeFs.openSync, readFileSync: nodeFs.readFileSync };
  let n = 0;
  for (const name of ['openSync', 'readFileSync'] as const) {
    nodeFs[name] = (...a: unknown[]) => {
      n++;
      return saved[name](...a);
    };
  }
  try {
    fn();
  } finally {
    Object.assign(nodeFs, saved);
  }
  return n;
}

export function findingsBench(sourceTree: string, benchDir: string): void {
  const { root, reviews } = findingsTree(sourceTree, path.join(benchDir, 'findings-tree'));
  const project = locateProject(root)!;
  const index = new StateIndex(project);
  const first = reviewFindings(index.state());
  const open = first.all.filter((f) => !f.resolved && f.file !== null).length;
  const visible = path.join(root, 'src', 'module-7.ts');
  const target = reviews[0];
  const original = fs.readFileSync(target, 'utf8');
  const ticked = original.replace('- [ ] ', '- [x] ');
  let painted = 0;
  const paint = () => {
    const all = reviewFindings(index.state());
    const threads = (all.byFile.get(visible) ?? []).map((f) => ({ line: lineAfterEdits((f.location!.line ?? 1) - 1, []), label: `${f.severity} · ${f.taskId} cycle ${f.cycle}`, resolved: f.resolved }));
    painted = threads.length;
  };
  const derive: number[] = [];
  const paints: number[] = [];
  let reads = 0;
  for (let k = 0; k < 50; k++) {
    fs.writeFileSync(target, k % 2 ? original : ticked);
    const t0 = process.hrtime.bigint();
    index.changed(target);
    index.state();
    const t1 = process.hrtime.bigint();
    reads = Math.max(reads, opensDuring(paint));
    const t2 = process.hrtime.bigint();
    derive.push(Number(t1 - t0) / 1e6);
    // The paint without the read counting around it, timed on its own.
    paint();
    paints.push(Number(process.hrtime.bigint() - t2) / 1e6);
  }
  fs.writeFileSync(target, original);
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`\n## Review findings in the editor (${open.toLocaleString('en')} open findings across ${first.byFile.size} files, ${reviews.length} reviews)`);
  console.log(`re-derive after one issue ticked   ${fmt(med(derive))} ms   (median of 50)`);
  console.log(`threads of the visible editor      ${fmt(med(paints))} ms   (${painted} threads on src/module-7.ts; target ≤ 50 ms; median of 50)`);
  console.log(`files read while painting          ${reads}   (target: none for files that are not open)`);
}
