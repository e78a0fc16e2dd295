// The folder order of src/ (docs/architecture.md, "Layers"), once: the ESLint rule below reads it for
// every import, and folder-cycles.mjs checks that no folder, listed or not, reaches itself again.
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * src/core's folders, bottom level first. A folder imports only folders of the levels below its own
 * (never a peer of its level, never one above); its own files freely. A new folder is an error until
 * it is placed here.
 */
export const CORE_LEVELS = [
  ['model'],
  ['files', 'sqlite', 'shell'],
  ['parse', 'prompts'],
  ['state', 'gsd2-database'],
  ['hooks/engine'],
  ['dispatch'],
  ['hooks/lifecycle'],
  ['hooks/loading'],
  ['hooks'],
  ['hooks/builtin/review-loop', 'hooks/builtin/pending-actions'],
  ['reviews', 'successor-gate'],
  ['successor'],
  ['project'],
  ['agent-hooks'],
];

/** The command-line and agent-hook faces, and the built-in hook list the CLI loads too: they never load VS Code. */
export const CLI_FACE = ['src/cli/**/*.ts', 'src/cli.ts', 'src/cli-gate.ts', 'src/cli-launcher.ts', 'src/hook-entry.ts', 'src/builtin-hooks.ts'];

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');
const CORE = path.join(SRC, 'core');
const LEVEL = new Map(CORE_LEVELS.flatMap((folders, level) => folders.map((f) => [f, level])));

const posix = (p) => p.split(path.sep).join('/');
const isCliFace = (rel) => rel.startsWith('cli/') || ['cli.ts', 'cli-gate.ts', 'cli-launcher.ts', 'hook-entry.ts'].includes(rel);
// Loaded by both faces: it imports neither.
const isShared = (rel) => rel === 'builtin-hooks.ts';
const isVscodeFace = (rel) => rel.startsWith('vscode/') || rel === 'extension.ts';

/** Why `from` (an absolute .ts file) may not import `to` (an absolute path, extension optional), or null. */
export function layerViolation(from, to) {
  const relFrom = posix(path.relative(SRC, from));
  const relTo = posix(path.relative(SRC, to));
  if (relFrom.startsWith('..') || relTo.startsWith('..')) return null;
  if (relFrom.startsWith('core/')) {
    if (!relTo.startsWith('core/')) return `src/core is shared by every face: it never imports src/${relTo}.`;
    const own = posix(path.relative(CORE, path.dirname(from)));
    const target = posix(path.relative(CORE, path.dirname(to)));
    if (own === target) return null;
    if (!LEVEL.has(own)) return `src/core/${own} has no place in the folder order: add it to CORE_LEVELS (scripts/lint/layers.mjs) and docs/architecture.md.`;
    if (!LEVEL.has(target)) return `src/core/${target} has no place in the folder order: add it to CORE_LEVELS (scripts/lint/layers.mjs) and docs/architecture.md.`;
    if (LEVEL.get(target) < LEVEL.get(own)) return null;
    const where = LEVEL.get(target) === LEVEL.get(own) ? 'beside it, on the same level' : 'above it';
    return `src/core/${own} may not import src/core/${target} (${where} in the folder order, docs/architecture.md "Layers"): move what both need down.`;
  }
  if (isShared(relFrom) && (isCliFace(relTo) || isVscodeFace(relTo))) return `src/${relFrom} is loaded by the command line and by VS Code: it may not import src/${relTo}.`;
  if (isCliFace(relFrom) && isVscodeFace(relTo)) return `The command line and the agent hooks run without VS Code: src/${relFrom} may not import src/${relTo}.`;
  if (isVscodeFace(relFrom) && isCliFace(relTo)) return `The VS Code face does not import the command line's: src/${relFrom} may not import src/${relTo}.`;
  return null;
}

function checkSource(context, node, source) {
  if (typeof source !== 'string' || !source.startsWith('.')) return;
  const problem = layerViolation(context.filename, path.resolve(path.dirname(context.filename), source));
  if (problem) context.report({ node, message: problem });
}

/** ESLint plugin: `layers/folder-order` on every relative import, export-from, import() and require(). */
export const layersPlugin = {
  rules: {
    'folder-order': {
      meta: { type: 'problem', docs: { description: 'Each folder of src/ imports only the folders below it (docs/architecture.md "Layers").' } },
      create(context) {
        const fromSource = (node) => node.source && checkSource(context, node.source, node.source.value);
        return {
          ImportDeclaration: fromSource,
          ExportNamedDeclaration: fromSource,
          ExportAllDeclaration: fromSource,
          ImportExpression: fromSource,
          CallExpression(node) {
            if (node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments[0]?.type === 'Literal') checkSource(context, node.arguments[0], node.arguments[0].value);
          },
        };
      },
    },
  },
};
