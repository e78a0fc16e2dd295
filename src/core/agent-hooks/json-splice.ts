// Adds and removes values in a JSON settings file by splicing text, so every byte of the user's own
// content stays as it was: an append goes right after the last sibling (`,` + newline + indented
// value) and a removal takes out exactly the span from the previous sibling's end, which makes
// uninstall the exact inverse of install. jsonc-parser finds the spans (it reads comments too);
// its own `modify` reformats whole arrays, which is why the splicing is ours. (Its ESM build: the
// UMD one requires its parts at run time, which a bundle cannot follow.)
import { findNodeAtLocation, parseTree, type JSONPath, type Node, type ParseError } from 'jsonc-parser/lib/esm/main.js';

export class JsonSpliceError extends Error {}

export function parseJsonTree(text: string, file: string): Node {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (!root || errors.length > 0 || root.type !== 'object') {
    throw new JsonSpliceError(`${file}:${lineAt(text, errors[0]?.offset ?? 0)}: not a JSON object; left as it is`);
  }
  return root;
}

/** The indentation unit the file uses (its first indented line), two spaces by default. */
export function indentUnit(text: string): string {
  const m = /\n([ \t]+)\S/.exec(text);
  return m ? (m[1].startsWith('\t') ? '\t' : m[1]) : '  ';
}

function depthOf(node: Node): number {
  let d = 0;
  for (let n = node.parent; n; n = n.parent) if (n.type === 'object' || n.type === 'array') d++;
  return d;
}

function render(value: unknown, unit: string, indent: string): string {
  return JSON.stringify(value, null, unit).split('\n').join(`\n${indent}`);
}

/** Text of `container` with `entry` appended (an array element, or an object property `[key, value]`). */
export function appendTo(text: string, container: Node, entry: { key?: string; value: unknown }): string {
  const unit = indentUnit(text);
  const depth = depthOf(container) + 1;
  const indent = unit.repeat(depth);
  const body = (entry.key !== undefined ? `${JSON.stringify(entry.key)}: ` : '') + render(entry.value, unit, indent);
  const children = container.children ?? [];
  if (children.length > 0) {
    const last = children[children.length - 1];
    const end = last.offset + last.length;
    return `${text.slice(0, end)},\n${indent}${body}${text.slice(end)}`;
  }
  const open = container.offset + 1;
  const close = container.offset + container.length - 1;
  return `${text.slice(0, open)}\n${indent}${body}\n${unit.repeat(depth - 1)}${text.slice(close)}`;
}

/** Text with the value `node` (an array element or a property's value) replaced by `value`, at its depth. */
export function replaceValue(text: string, node: Node, value: unknown): string {
  const unit = indentUnit(text);
  return text.slice(0, node.offset) + render(value, unit, unit.repeat(depthOf(node))) + text.slice(node.offset + node.length);
}

/** Text without `node` (an array element or an object property node), and its separator. */
export function removeNode(text: string, node: Node): string {
  const container = node.parent!;
  const siblings = container.children ?? [];
  const i = siblings.indexOf(node);
  const end = node.offset + node.length;
  if (i > 0) {
    // The comma after the previous sibling and the node's own line go; a comment between them (the
    // user's, after their own entry) stays.
    const prev = siblings[i - 1];
    const comma = commaAfter(text, prev.offset + prev.length, node.offset);
    if (comma === -1) return text.slice(0, prev.offset + prev.length) + text.slice(end);
    let start = node.offset;
    while (start > comma + 1 && (text[start - 1] === ' ' || text[start - 1] === '\t')) start--;
    if (start > comma + 1 && text[start - 1] === '\n') start--;
    if (start > comma + 1 && text[start - 1] === '\r') start--;
    return text.slice(0, comma) + text.slice(comma + 1, start) + text.slice(end);
  }
  if (siblings.length > 1) return text.slice(0, node.offset) + text.slice(siblings[1].offset);
  return text.slice(0, container.offset + 1) + text.slice(container.offset + container.length - 1);
}

/** The offset of the separating comma between `from` and `to`, skipping white space and comments; -1 if none. */
function commaAfter(text: string, from: number, to: number): number {
  let i = from;
  while (i < to) {
    const c = text[i];
    if (c === ',') return i;
    if (c === '/' && text[i + 1] === '/') {
      const nl = text.indexOf('\n', i);
      i = nl === -1 ? to : nl + 1;
    } else if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      i = close === -1 ? to : close + 2;
    } else if (c === ' ' || c === '\t' || c === '\n' || c === '\r') i++;
    else return -1;
  }
  return -1;
}

export function nodeAt(root: Node, path: JSONPath): Node | undefined {
  return findNodeAtLocation(root, path);
}

/** The property node (key + value) of an object member. */
export function propertyOf(valueNode: Node): Node {
  return valueNode.parent && valueNode.parent.type === 'property' ? valueNode.parent : valueNode;
}

/**
 * The first key that appears twice in one object, at or under `node`: its path (`hooks.Stop`) and the
 * offset of its second appearance; null when there is none. JSON readers keep the last of two keys,
 * while a splice finds the first.
 */
export function repeatedKey(node: Node, at: string[] = []): { path: string; offset: number } | null {
  if (node.type === 'object') {
    const seen = new Set<string>();
    for (const prop of node.children ?? []) {
      const key = String(prop.children?.[0]?.value);
      if (seen.has(key)) return { path: [...at, key].join('.'), offset: prop.offset };
      seen.add(key);
      const value = prop.children?.[1];
      const inner = value ? repeatedKey(value, [...at, key]) : null;
      if (inner) return inner;
    }
  } else if (node.type === 'array') {
    for (const [i, item] of (node.children ?? []).entries()) {
      const inner = repeatedKey(item, [...at.slice(0, -1), `${at[at.length - 1] ?? ''}[${i}]`]);
      if (inner) return inner;
    }
  }
  return null;
}

/**
 * The first key of `path` that its object holds twice, with the offset of the second; null when
 * each appears once at most. JSON readers keep the last of two keys, nodeAt (a splice) the first.
 */
export function repeatedAlong(root: Node, path: readonly string[]): { path: string; offset: number } | null {
  let node: Node | undefined = root;
  for (let i = 0; i < path.length && node?.type === 'object'; i++) {
    const props: Node[] = (node.children ?? []).filter((p) => p.children?.[0]?.value === path[i]);
    if (props.length > 1) return { path: path.slice(0, i + 1).join('.'), offset: props[1].offset };
    node = props[0]?.children?.[1];
  }
  return null;
}

/** The line (from 1) of an offset in `text`. */
export function lineAt(text: string, offset: number): number {
  return text.slice(0, offset).split('\n').length;
}
