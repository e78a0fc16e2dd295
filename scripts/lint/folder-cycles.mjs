// Folder cycles in src/, which dpdm (file cycles) does not see: a file of folder A imports one of B
// and a file of B (or of a folder B reaches) imports one of A. Prints each cycle with the imports
// that make it and exits 1; part of `npm run lint`. src/vscode counts as one folder: its feature
// folders (panel/, dispatch/, …) are grouped by feature, not layered (docs/architecture.md).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');
const posix = (p) => p.split(path.sep).join('/');

function tsFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? tsFiles(p) : p.endsWith('.ts') && !p.endsWith('.d.ts') ? [p] : [];
  });
}

/** The node a file belongs to: its folder, src/vscode as a whole, and each file of src/ itself on its own. */
function nodeOf(file) {
  const rel = posix(path.relative(SRC, file));
  if (rel.startsWith('vscode/')) return 'src/vscode';
  return rel.includes('/') ? `src/${path.posix.dirname(rel)}` : `src/${rel}`;
}

function resolveImport(from, spec) {
  const base = path.resolve(path.dirname(from), spec).replace(/\.js$/, '');
  for (const candidate of [base, `${base}.ts`, path.join(base, 'index.ts')]) if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  return null;
}

/** node → (node it imports → the imports that make the edge). */
const edges = new Map();
for (const file of tsFiles(SRC)) {
  const from = nodeOf(file);
  for (const { fileName } of ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true).importedFiles) {
    if (!fileName.startsWith('.')) continue;
    const target = resolveImport(file, fileName);
    if (!target) continue;
    const to = nodeOf(target);
    if (to === from) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    const out = edges.get(from);
    if (!out.has(to)) out.set(to, []);
    out.get(to).push(`${posix(path.relative(SRC, file))} -> ${posix(path.relative(SRC, target))}`);
  }
}

// Tarjan's strongly connected components: every component of more than one folder is a cycle.
let counter = 0;
const index = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const cycles = [];
function visit(v) {
  index.set(v, counter);
  low.set(v, counter++);
  stack.push(v);
  onStack.add(v);
  for (const w of edges.get(v)?.keys() ?? []) {
    if (!index.has(w)) {
      visit(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
  }
  if (low.get(v) !== index.get(v)) return;
  const component = [];
  let w;
  do {
    w = stack.pop();
    onStack.delete(w);
    component.push(w);
  } while (w !== v);
  if (component.length > 1) cycles.push(component.sort());
}
for (const v of edges.keys()) if (!index.has(v)) visit(v);

if (cycles.length === 0) process.exit(0);
for (const component of cycles) {
  const inside = new Set(component);
  console.error(`Folder cycle: ${component.join(', ')}`);
  for (const from of component) {
    for (const [to, imports] of edges.get(from) ?? []) if (inside.has(to)) console.error(`  ${from} -> ${to}: ${imports.join(', ')}`);
  }
}
process.exit(1);
