// Where a cold full derive's own work goes, beside reading: each hot parser over its files of the
// tree (read into memory first, so only parsing is timed), and the collector's pauses during a derive
// (the state it builds is copied by V8's young generation). Shares are of the cold full derive
// measured in the same run.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { parseCodeReview } from '../src/core/parse/code-review';
import { parseFrontmatter } from '../src/core/parse/frontmatter';
import { parseSlicePlan } from '../src/core/parse/slice-plan';
import { parseTaskSummaryForState } from '../src/core/parse/task-summary';
import { markdownFiles } from './frontmatter-bench';
import { fmt, medianMsInterleaved, ratio } from './measure';

type Kind = 'summary' | 'review' | 'slicePlan';

function kindOf(name: string): Kind | null {
  if (/^T\d+-SUMMARY\.md$/.test(name)) return 'summary';
  if (/^T\d+-CODE-REVIEW(?:-C\d+)?\.md$/.test(name)) return 'review';
  if (/^S\d+-PLAN\.md$/.test(name)) return 'slicePlan';
  return null;
}

function filesByKind(gsdDir: string): Record<Kind, Array<[string, string]>> {
  const out: Record<Kind, Array<[string, string]>> = { summary: [], review: [], slicePlan: [] };
  for (const file of markdownFiles(gsdDir)) {
    const kind = kindOf(path.basename(file));
    if (kind) out[kind].push([fs.readFileSync(file, 'utf8'), file]);
  }
  return out;
}

/** Milliseconds of collector pauses per call of `derive`, median of `rounds` (after 3 unmeasured). */
async function gcPauseMs(derive: () => void, rounds = 9): Promise<number> {
  let paused = 0;
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) paused += e.duration;
  });
  observer.observe({ entryTypes: ['gc'] });
  const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
  const per: number[] = [];
  for (let r = 0; r < rounds + 3; r++) {
    await settle();
    const before = paused;
    derive();
    await settle();
    if (r >= 3) per.push(paused - before);
  }
  observer.disconnect();
  per.sort((a, b) => a - b);
  return per[Math.floor(per.length / 2)];
}

export async function parsersBench(gsdDir: string, deriveMs: number, derive: () => void): Promise<void> {
  const files = filesByKind(gsdDir);
  const [summaries, reviews, plans] = medianMsInterleaved(7, [
    () => files.summary.forEach(([t, f]) => parseTaskSummaryForState(t, f)),
    () => files.review.forEach(([t, f]) => parseCodeReview(t, f)),
    () => files.slicePlan.forEach(([t, f]) => {
      const fm = parseFrontmatter(t, f);
      parseSlicePlan(fm.body, fm.bodyStartLine, f);
    }),
  ]);
  const gc = await gcPauseMs(derive);
  const count = (k: Kind) => files[k].length.toLocaleString('en');
  console.log(`\n## A cold full derive's own work (10,000-task tree; parsing from memory, medians; shares of the cold full derive, ${fmt(deriveMs)} ms)`);
  const line = (label: string, ms: number, note = '') => console.log(`${label.padEnd(34)}${fmt(ms)} ms   ${ratio(ms, deriveMs)}${note}`);
  line(`task summaries (${count('summary')})`, summaries);
  line(`reviews (${count('review')})`, reviews);
  line(`slice plans (${count('slicePlan')})`, plans);
  line('collector pauses in one derive', gc, ' (median of 9, a gc PerformanceObserver)');
}
