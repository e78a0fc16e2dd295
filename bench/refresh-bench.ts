// From a file write to "these units changed" on a large project: the file watcher's latency (Node's
// recursive fs.watch, standing in for VS Code's watcher) plus our incremental re-derive and state
// diff. The panel adds its debounce (200 ms by default) on top.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { locateProject } from '../src/core/state/locate-project';
import { stateChanges } from '../src/core/state/state-changes';
import { StateIndex } from '../src/core/state/state-index';
import { fmt, median } from './measure';

export async function refreshBench(root: string, tasks: number): Promise<void> {
  const project = locateProject(root)!;
  const index = new StateIndex(project);
  let last = index.state();
  const m = last.milestones.find((x) => x.id === last.activeMilestone?.id)!;
  const slice = m.slices.find((x) => x.id === last.activeSlice?.id)!;
  const target = slice.tasks[0].summaryFile!;
  const original = fs.readFileSync(target, 'utf8');
  const endToEnd: number[] = [];
  const processing: number[] = [];
  let pending: { written: bigint; resolve: () => void } | null = null;
  const watcher = fs.watch(project.gsdDir, { recursive: true }, (_event, file) => {
    if (!pending || !file) return;
    const started = process.hrtime.bigint();
    index.changed(path.join(project.gsdDir, file.toString()));
    const next = index.state();
    const changes = stateChanges(last, next);
    last = next;
    const done = process.hrtime.bigint();
    if (changes.slices.size === 0 && !changes.project) return;
    processing.push(Number(done - started) / 1e6);
    endToEnd.push(Number(done - pending.written) / 1e6);
    const p = pending;
    pending = null;
    p.resolve();
  });
  try {
    for (let i = 0; i < 30; i++) {
      const text = i % 2 ? original : original.replace('verification_result: passed', 'verification_result: mixed');
      await new Promise<void>((resolve) => {
        pending = { written: process.hrtime.bigint(), resolve };
        fs.writeFileSync(target, text);
      });
    }
  } finally {
    watcher.close();
    fs.writeFileSync(target, original);
  }
  console.log(`file write → changed units (${tasks.toLocaleString('en')} tasks)  ${fmt(median(endToEnd))} ms   (median of 30: watcher + re-derive + diff; our part ${fmt(median(processing))} ms; target < 100 ms + debounce)`);
}
