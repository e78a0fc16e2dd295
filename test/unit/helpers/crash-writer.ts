// Child process for the crash test: commits hook state to one task's sidecar in a loop, alternating two
// large values, until it is killed. Prints "ready" after its first commit.
import { NodeGsdStore } from '../../../src/core/files/gsd-store';
import { HookStateTransaction } from '../../../src/core/hooks/engine/hook-state';
import { ProjectFiles } from '../../../src/core/state/project-files';

const [gsdDir, unitId, size] = process.argv.slice(2);
const store = new NodeGsdStore();
for (let i = 0; ; i++) {
  const tx = new HookStateTransaction(new ProjectFiles(store), gsdDir, store);
  tx.handleFor('crash').set(unitId, { round: i % 2, payload: (i % 2 ? 'a' : 'b').repeat(Number(size)) });
  tx.commit();
  if (i === 0) process.stdout.write('ready\n');
}
