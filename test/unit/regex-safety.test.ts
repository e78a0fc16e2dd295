// Every regular expression in src/ (all the code the product runs) must scan in linear time:
// a repository is untrusted input, and one long line must not stall `hook` past the host's timeout.
// The sources are parsed with the TypeScript compiler, so no literal escapes the check, and each one
// is judged by recheck (its pure-JavaScript backend: nothing is downloaded or spawned).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

process.env.RECHECK_BACKEND = 'pure';
const { checkSync } = require('recheck') as typeof import('recheck');

const ROOT = path.resolve(__dirname, '..', '..');
// The product is what esbuild bundles from src/ (the CLI, the hook bridge, the extension).
const SCANNED = ['src'];

interface FoundRegex { file: string; line: number; source: string; flags: string }

function sourceFiles(entry: string): string[] {
  const abs = path.join(ROOT, entry);
  if (!fs.existsSync(abs)) return [];
  if (fs.statSync(abs).isFile()) return [abs];
  return fs.readdirSync(abs, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(?:ts|mts|js|mjs)$/.test(e.name))
    .map((e) => path.join(e.parentPath, e.name));
}

/** A `new RegExp(...)` argument as text, when it is built from literals only. */
function literalText(node: ts.Expression | undefined): string | null {
  if (!node) return '';
  if (ts.isStringLiteralLike(node)) return node.text;
  return null;
}

function collect(file: string): { found: FoundRegex[]; dynamic: string[] } {
  const text = fs.readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: FoundRegex[] = [];
  const dynamic: string[] = [];
  const where = (n: ts.Node) => sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
  const visit = (node: ts.Node): void => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const lit = node.getText(sf);
      const end = lit.lastIndexOf('/');
      found.push({ file, line: where(node), source: lit.slice(1, end), flags: lit.slice(end + 1) });
    } else if ((ts.isNewExpression(node) || ts.isCallExpression(node)) && ts.isIdentifier(node.expression) && node.expression.text === 'RegExp') {
      const source = literalText(node.arguments?.[0]);
      const flags = literalText(node.arguments?.[1]);
      if (source === null || flags === null) dynamic.push(`${path.relative(ROOT, file)}:${where(node)}`);
      else found.push({ file, line: where(node), source, flags });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return { found, dynamic };
}

describe('regular expressions scan in linear time', function () {
  this.timeout(120_000);
  const all: FoundRegex[] = [];
  const dynamic: string[] = [];
  for (const entry of SCANNED) {
    for (const file of sourceFiles(entry)) {
      const r = collect(file);
      all.push(...r.found);
      dynamic.push(...r.dynamic);
    }
  }
  // The manifest's `when` clauses (`viewItem =~ /…/`), which VS Code evaluates on every tree item.
  const manifest = path.join(ROOT, 'package.json');
  const manifestText = fs.readFileSync(manifest, 'utf8');
  for (const m of manifestText.matchAll(/=~ \/((?:[^/\\"]|\\\\.)+)\/([a-z]*)/g)) {
    all.push({ file: manifest, line: manifestText.slice(0, m.index).split('\n').length, source: m[1].replace(/\\\\/g, '\\'), flags: m[2] });
  }

  it('finds the regular expressions of the sources (the collector works)', () => {
    // src/ holds dozens of patterns; a collector that found none would make the check below vacuous.
    assert.ok(all.length > 40, `only ${all.length} regexes found`);
    assert.ok(all.some((r) => r.file.endsWith(path.join('core', 'parse', 'slice-plan.ts'))));
    assert.ok(all.some((r) => r.file.endsWith('package.json')), 'no when-clause pattern found in package.json');
  });

  it('builds no RegExp from run-time text (such a pattern cannot be checked ahead)', () => {
    assert.deepEqual(dynamic, []);
  });

  it('recheck reports a known quadratic pattern (the checker works offline)', () => {
    const r = checkSync('^(.*?)\\s*$', '', { timeout: 10_000 });
    assert.equal(r.status, 'vulnerable');
  });

  it('passes recheck for every regex in src/ and in the manifest when clauses', () => {
    const unsafe: string[] = [];
    for (const r of all) {
      const verdict = checkSync(r.source, r.flags, { timeout: 60_000 });
      if (verdict.status !== 'safe') {
        const why = verdict.status === 'vulnerable' ? verdict.complexity.summary : verdict.status;
        unsafe.push(`${path.relative(ROOT, r.file)}:${r.line} /${r.source}/${r.flags}: ${why}`);
      }
    }
    assert.deepEqual(unsafe, []);
  });
});
