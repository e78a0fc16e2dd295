// Child process for the all-or-nothing crash test: commits one dispatch's worth of files in a loop
// (hook state on a task and on its slice, a staged snapshot file, and the dispatch record), each
// commit carrying the same round number, until it is killed. Prints "ready" after its first commit.
import { appendDispatch } from '../../../src/core/dispatch/dispatch-record';
import { NodeGsdStore } from '../../../src/core/files/gsd-store';
import { HookStateTransaction } from '../../../src/core/hooks/engine/hook-state';
import { ProjectFiles } from '../../../src/core/state/project-files';

const [gsdDir, task, slice, snapshot, size] = process.argv.slice(2);
const store = new NodeGsdStore();
for (let i = 0; ; i++) {
  const tx = new HookStateTransaction(new ProjectFiles(store), gsdDir, store);
  const value = { round: i, payload: 'p'.repeat(Number(size)) };
  tx.handleFor('journal').set(task, value);
  tx.handleFor('journal').set(slice, value);
  tx.stageFile(snapshot, `round ${i}\n`);
  const at = new Date().toISOString();
  tx.commit([appendDispatch(gsdDir, { unitType: 'execute-task', unitId: task, prompt: 'p', source: 'journal', reason: `round ${i}`, dispatchedAt: at, fingerprint: String(i) })]);
  if (i === 0) process.stdout.write('ready\n');
}
