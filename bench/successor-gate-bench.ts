// The review gate in GSD's successor: `gsd-review gate <task> --json`, what the reviewer runs at the
// start of every review cycle while GSD waits, and `--guard`, what the guard extension runs for each
// of the reviewer's tool calls but reads, against a bare `node -e 0` in the same run, on the
// 10,000-task tree in the successor's own layout (generate-successor-tree.ts).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { generateSuccessorTree } from './generate-successor-tree';
import { fmt, processMsInterleaved, ratio } from './measure';

export function successorGateBench(cli: string, benchDir: string, tasks: number): void {
  const root = path.join(benchDir, `successor-${tasks}`);
  const marker = path.join(root, '.generated');
  if (!fs.existsSync(marker)) {
    fs.rmSync(root, { recursive: true, force: true });
    const made = generateSuccessorTree(root, tasks);
    fs.writeFileSync(marker, JSON.stringify(made));
  }
  const tree = JSON.parse(fs.readFileSync(marker, 'utf8')) as { files: number; tasks: number; activeUnit: string };
  // A home of its own: no ~/.gsd of this machine's user is read.
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gate-bench-home-'));
  process.env.HOME = home;
  const guardCall = path.join(home, 'call.json');
  fs.writeFileSync(guardCall, JSON.stringify({ toolName: 'write', input: { path: 'src/retry.ts', content: 'x' } }));
  const [nodeBare, gate, guard] = processMsInterleaved(21, [
    [process.execPath, ['-e', '0']],
    [process.execPath, [cli, 'gate', tree.activeUnit, '--json', '--root', root]],
    ['sh', ['-c', `"$0" "$1" gate "$2" --guard --root "$3" < "$4"`, process.execPath, cli, tree.activeUnit, root, guardCall]],
  ]);
  console.log(`\n## Review gate in a successor project (${tree.tasks.toLocaleString('en')} tasks, ${tree.files.toLocaleString('en')} files, .gsd/phases layout; medians of 21 interleaved rounds)`);
  console.log(`whole process: node -e 0          ${fmt(nodeBare)} ms`);
  console.log(`whole process: gate --json        ${fmt(gate)} ms   ${ratio(gate, nodeBare)} node -e 0 (target ≤ 1.3×)`);
  console.log(`whole process: gate --guard       ${fmt(guard)} ms   ${ratio(guard, nodeBare)} node -e 0 (one tool call of the reviewer; through sh, as the extension runs it)`);
}
