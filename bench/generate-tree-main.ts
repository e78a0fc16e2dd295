// `node dist/bench/generate-tree-main.js TASKS` : makes (once) the benchmark's TASKS-task tree under
// .bench/tree-TASKS, as `npm run bench` does, and prints its folder. For scripts that open the tree
// in a real workbench (bench/panel-paint.mjs).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { generateTree, shapeFor } from './generate-tree';

const tasks = Number(process.argv[2] ?? 10_000);
if (!Number.isInteger(tasks) || tasks < 1) {
  console.error(`generate-tree: the number of tasks must be a positive integer, not "${process.argv[2]}"`);
  process.exit(2);
}
const root = path.join(path.resolve(__dirname, '..', '..'), '.bench', `tree-${tasks}`);
const marker = path.join(root, '.generated');
if (!fs.existsSync(marker)) {
  fs.rmSync(root, { recursive: true, force: true });
  fs.writeFileSync(marker, JSON.stringify(generateTree(root, shapeFor(tasks))));
}
console.log(root);
