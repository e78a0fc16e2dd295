// Byte-preserving edit of one hook's block, `extensions.<hook>`, in a markdown file's frontmatter.
// The `yaml` package parses the frontmatter to find where things are (node ranges); the new block is
// spliced into the original text, so every byte outside our block stays as it was: other keys,
// their order, quoting and comments, the body, and the line endings (a CRLF file stays CRLF).
import type * as YamlModule from 'yaml';
import { findFrontmatterBlock, parseYaml } from './frontmatter';

// Loaded on first write: the CLI's read-only commands (`next`, `hook`) start ~2 ms faster without it.
let yamlModule: typeof YamlModule | undefined;
function yamlLib(): typeof YamlModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (yamlModule ??= require('yaml') as typeof YamlModule);
}

export class FrontmatterWriteError extends Error {}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Hook state must survive a round trip through YAML: plain data only. */
export function assertPlainData(value: unknown, where = 'value'): asserts value is Json {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new FrontmatterWriteError(`${where} is ${value}; hook state must be plain data`);
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((v, i) => assertPlainData(v, `${where}[${i}]`));
    return;
  }
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (v !== undefined) assertPlainData(v, `${where}.${k}`);
    }
    return;
  }
  throw new FrontmatterWriteError(`${where} is a ${typeof value === 'object' ? (value as object).constructor?.name : typeof value}; hook state must be plain data`);
}

function dropUndefined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropUndefined);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined).map(([k, v]) => [k, dropUndefined(v)]));
  }
  return value;
}

/** `key: value` as block YAML, every line but the first indented by `indent`, ending in a newline. */
function renderPair(key: string, value: unknown, indent: string, eol: string): string {
  const text = yamlLib().stringify({ [key]: dropUndefined(value) }, { lineWidth: 0, indent: 2 });
  const lines = text.replace(/\n$/, '').split('\n');
  return lines.map((l, i) => (i === 0 ? l : indent + l)).join(eol) + eol;
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

function keyName(node: unknown): string | undefined {
  return yamlLib().isScalar(node) ? String((node as YamlModule.Scalar).value) : undefined;
}

/** Where the line holding `pos` ends (after its line break); `pos` itself when a line starts there. */
function lineEnd(yaml: string, pos: number): number {
  if (pos > 0 && yaml[pos - 1] === '\n') return pos;
  const nl = yaml.indexOf('\n', pos);
  return nl === -1 ? yaml.length : nl + 1;
}

// Where a node's edit ends. A node's range runs past its trailing comment lines, and after them up
// to the next key: into the indentation of that key's line when the next key is indented (the
// next hook's). The edit then ends where that line starts, never in it, or the next hook's key
// line would go with ours (and its block with it).
function nodeEnd(yaml: string, pos: number): number {
  const start = lineStart(yaml, pos);
  return /^[ \t]*$/.test(yaml.slice(start, pos)) ? start : lineEnd(yaml, pos);
}

/** Replaces yaml[start, end) with `insert` in the file's text (edits work on whole lines of the YAML). */
type Splice = (start: number, end: number, insert: string) => string;

// Text read as UTF-8 from a Latin-1 or UTF-16 file holds U+FFFD (or NULs) where its bytes were:
// writing it back would replace the user's bytes outside our block.
function refuseNonUtf8(text: string): void {
  if (text.includes('\uFFFD') || text.includes('\u0000')) {
    throw new FrontmatterWriteError('the file is not UTF-8 text (Latin-1 or UTF-16?); not rewriting it, so its bytes stay as they are');
  }
}

/** A file without frontmatter gets one holding only our block, before its first byte (after a BOM). */
function withNewFrontmatter(text: string, hook: string, value: unknown): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  return `${bom}---${eol}extensions:${eol}  ${renderPair(hook, value, '  ', eol)}---${eol}${text.slice(bom.length)}`;
}

/** The frontmatter's top mapping (null when empty), or why it is not edited. */
function editableRoot(yaml: string): YamlModule.YAMLMap | null {
  // The reader has the last word: what it reports broken (unknown tags such as !!timestamp, control
  // characters, too deep, aliases expanding too far) is not written either, or the write would
  // replace state the reader could not see (and restart a review at cycle 1).
  const read = parseYaml(yaml, '', 2);
  if (read.diagnostics.length > 0) throw new FrontmatterWriteError(`${read.diagnostics[0].message.replace(/^frontmatter /, 'the frontmatter ')}; not editing it`);
  const YAML = yamlLib();
  const doc = YAML.parseDocument(yaml, { keepSourceTokens: false, uniqueKeys: true });
  if (doc.errors.length > 0) throw new FrontmatterWriteError(`the frontmatter is not valid YAML (${doc.errors[0].message.split('\n')[0]}); not editing it`);
  const root = doc.contents;
  if (root !== null && !YAML.isMap(root)) throw new FrontmatterWriteError('the frontmatter is not a mapping; not editing it');
  // `{id: T02, owner: alice}`: a line-based splice would break it; rewriting it would change bytes.
  if (root !== null && root.flow) throw new FrontmatterWriteError('the frontmatter is a flow mapping ({…} on one line); not editing it, write it as key: value lines to let the review loop keep its state there');
  return root as YamlModule.YAMLMap | null;
}

// An anchor in our block may be used elsewhere, an alias in it points elsewhere: editing either
// changes or breaks keys that are not ours.
function refuseLinks(nodes: ReadonlyArray<YamlModule.Node | null>): void {
  const YAML = yamlLib();
  let linked = false;
  for (const node of nodes) {
    if (!node) continue;
    YAML.visit(node, (_key, n) => {
      if (YAML.isAlias(n) || ((YAML.isNode(n) || YAML.isPair(n)) && (n as { anchor?: string }).anchor)) {
        linked = true;
        return YAML.visit.BREAK;
      }
      return undefined;
    });
  }
  if (linked) throw new FrontmatterWriteError('the extensions block uses YAML anchors or aliases (&name, *name); not editing it, as other keys may share them');
}

/** Sets or removes our hook's entry inside an existing `extensions:` key. */
function editExtensions(yaml: string, extPair: YamlModule.Pair, hook: string, value: unknown, eol: string, splice: Splice, text: string): string {
  const YAML = yamlLib();
  const extKey = extPair.key as YamlModule.Node;
  const extValue = extPair.value as YamlModule.Node | null;
  refuseLinks([extKey, extValue]);
  const extStart = lineStart(yaml, extKey.range![0]);
  const extEnd = nodeEnd(yaml, extValue?.range ? extValue.range[2] : extKey.range![2]);

  const empty = extValue === null || (YAML.isScalar(extValue) && (extValue.value === null || extValue.value === ''));
  if (!empty && (!YAML.isMap(extValue) || extValue.flow)) {
    // A flow map (`{a: 1}`), a list or a scalar: turning it into a block would rewrite other hooks'
    // bytes (and comments), or drop the value; the user decides.
    throw new FrontmatterWriteError('extensions is not a block mapping (one hook per line); not editing it, so no other value is rewritten or dropped');
  }
  if (empty) {
    // `extensions:` with nothing under it: ours becomes its only entry.
    if (value === undefined) return text;
    const keyIndent = ' '.repeat(extKey.range![0] - extStart);
    return splice(extStart, extEnd, keyIndent + renderPair('extensions', { [hook]: value }, keyIndent, eol));
  }

  const items = (extValue as YamlModule.YAMLMap).items;
  const firstKey = items[0]?.key as YamlModule.Node | undefined;
  const indent = firstKey?.range ? ' '.repeat(firstKey.range[0] - lineStart(yaml, firstKey.range[0])) : '  ';
  const ours = items.find((p) => keyName(p.key) === hook);
  if (!ours) {
    if (value === undefined) return text;
    return splice(extEnd, extEnd, indent + renderPair(hook, value, indent, eol));
  }
  const key = ours.key as YamlModule.Node;
  const val = ours.value as YamlModule.Node | null;
  const start = lineStart(yaml, key.range![0]);
  const end = nodeEnd(yaml, val?.range ? val.range[2] : key.range![2]);
  if (value === undefined) {
    // Ours was the only hook: the whole `extensions:` key goes.
    return items.length === 1 ? splice(extStart, extEnd, '') : splice(start, end, '');
  }
  return splice(start, end, indent + renderPair(hook, value, indent, eol));
}

/**
 * Returns `text` with `extensions.<hook>` set to `value` (or removed when `value` is undefined).
 * Everything outside that block is kept byte for byte. Throws FrontmatterWriteError when the
 * frontmatter cannot be edited safely (broken YAML, not a mapping, no closing fence).
 */
export function setExtensionBlock(text: string, hook: string, value: unknown): string {
  if (value !== undefined) assertPlainData(value, `extensions.${hook}`);
  refuseNonUtf8(text);
  const block = findFrontmatterBlock(text);
  if (!block.present) return value === undefined ? text : withNewFrontmatter(text, hook, value);
  if (!block.closed) throw new FrontmatterWriteError('the frontmatter is never closed (no second ---); not editing a half-written file');
  const yaml = block.yaml!;
  const eol = block.eol;
  const root = editableRoot(yaml);
  // Edits work on whole lines: every pair of a block mapping ends at a line end, and the YAML text
  // between the fences always ends with a line break.
  const splice: Splice = (start, end, insert) => {
    const next = yaml.slice(0, start) + insert + yaml.slice(end);
    // Removing our last key from a frontmatter that holds nothing else removes the fences too, so a
    // file we added frontmatter to is given back exactly as it was.
    if (next.trim() === '') return text.slice(0, text.startsWith('\uFEFF') ? 1 : 0) + text.slice(block.bodyStart);
    return text.slice(0, block.yamlStart + start) + insert + text.slice(block.yamlStart + end);
  };
  const extPair = root ? root.items.find((p) => keyName(p.key) === 'extensions') : undefined;
  if (extPair) return editExtensions(yaml, extPair, hook, value, eol, splice, text);
  if (value === undefined) return text;
  const needsBreak = yaml.length > 0 && !yaml.endsWith('\n');
  return splice(yaml.length, yaml.length, `${needsBreak ? eol : ''}extensions:${eol}  ${renderPair(hook, value, '  ', eol)}`);
}
