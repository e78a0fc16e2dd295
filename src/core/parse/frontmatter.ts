// Frontmatter: the YAML block between `---` fences at the top of a GSD markdown file.
// Values are kept as GSD wrote them: js-yaml's CORE schema has no timestamp type, so
// `completed_at: 2026-05-10T14:02:11Z` stays a string (the YAML 1.1 default would make it a Date).
// Reading is the hot path of a full derive (17,000 files at 10,000 tasks): js-yaml parses ~10x
// faster than the `yaml` package, which we keep for byte-preserving writes, and the fences are found
// here: gray-matter (which the design first named) cost ~70 ms of a 440 ms derive in per-call
// overhead alone (npm run bench, 10,000 tasks), and we use none of what it adds.
import { jsYamlLib } from './js-yaml-lib';
import { parseGsdYamlSubset, plainScalar } from './gsd-yaml-subset';
import type { Diagnostic } from '../model/types';

export interface Frontmatter {
  data: Record<string, unknown>;
  body: string;
  /** 1-based line of the file on which `body` starts. */
  bodyStartLine: number;
  /** Whether the file has a frontmatter block at all. */
  present: boolean;
  diagnostics: Diagnostic[];
}

export interface FrontmatterBlock {
  /** The YAML text between the fences, or null when there is no (closed) block. */
  yaml: string | null;
  /** Offset of the YAML text in the file, and of the body after the closing fence. */
  yamlStart: number;
  yamlEnd: number;
  bodyStart: number;
  /** The line break the fences use (`\r\n` in a CRLF file). */
  eol: '\n' | '\r\n';
  present: boolean;
  closed: boolean;
  /** 1-based line of the file on which the body starts. */
  bodyStartLine: number;
}

/** Where a `---` fence line starting at `at` ends (after its line break), or -1 if it is not one. */
function fenceLineEnd(text: string, at: number): number {
  if (!text.startsWith('---', at)) return -1;
  let i = at + 3;
  while (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9) i++;
  if (i === text.length) return i;
  if (text.charCodeAt(i) === 10) return i + 1;
  if (text.charCodeAt(i) === 13 && text.charCodeAt(i + 1) === 10) return i + 2;
  return -1;
}

/**
 * Finds the fences without parsing anything; shared by reading and by the byte-preserving writer.
 * Scanned by hand (every file of a full derive passes here): the block opens with `---` on the
 * first line (after an optional BOM) and closes at the next line that is `---`.
 */
export function findFrontmatterBlock(text: string): FrontmatterBlock {
  const at = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const yamlStart = fenceLineEnd(text, at);
  // The opening fence needs its own line break; `---` alone is not a block.
  if (yamlStart === -1 || text.charCodeAt(yamlStart - 1) !== 10) {
    return { yaml: null, yamlStart: 0, yamlEnd: 0, bodyStart: 0, eol: '\n', present: false, closed: false, bodyStartLine: 1 };
  }
  const eol = text.charCodeAt(yamlStart - 2) === 13 ? '\r\n' : '\n';
  // Line by line from the one after the opening fence (an empty block closes right there), counting
  // lines on the way: the body's line number comes with the scan instead of a second pass.
  let line = 2;
  for (let at = yamlStart; at < text.length; line++) {
    if (text.charCodeAt(at) === 45) {
      const bodyStart = fenceLineEnd(text, at);
      if (bodyStart !== -1) {
        return { yaml: text.slice(yamlStart, at), yamlStart, yamlEnd: at, bodyStart, eol, present: true, closed: true, bodyStartLine: text.charCodeAt(bodyStart - 1) === 10 ? line + 1 : line };
      }
    }
    const nl = text.indexOf('\n', at);
    if (nl === -1) break;
    at = nl + 1;
  }
  return { yaml: null, yamlStart, yamlEnd: text.length, bodyStart: yamlStart, eol, present: true, closed: false, bodyStartLine: 2 };
}

export function countLines(text: string, end = text.length): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

export interface ParseOptions {
  /**
   * Only these top-level keys are needed. Single-line scalar values are read straight from their
   * lines; a key whose value is anything else (a list, a mapping, a quoted or odd scalar) makes the
   * whole block go through the YAML parser, so the values and diagnostics are what it says.
   */
  onlyKeys?: readonly string[];
}

/** Wanted keys by the character code they start with (ASCII keys), built once per key list. */
const keyTables = new WeakMap<readonly string[], Array<string[] | undefined>>();

function keyTable(keys: readonly string[]): Array<string[] | undefined> {
  let table = keyTables.get(keys);
  if (!table) {
    table = new Array<string[] | undefined>(128);
    for (const key of keys) (table[key.charCodeAt(0)] ??= []).push(key);
    keyTables.set(keys, table);
  }
  return table;
}

/**
 * Where the value starts when `key` starts the line at `start` and is followed by `[ \t]*:`, else -1.
 * The caller found `key` by the line's first character; the rest is compared by hand (startsWith on
 * a two-byte summary measured slower).
 */
function valueAfterKey(yaml: string, start: number, key: string): number {
  for (let k = 1; k < key.length; k++) if (yaml.charCodeAt(start + k) !== key.charCodeAt(k)) return -1;
  let i = start + key.length;
  while (yaml.charCodeAt(i) === 32 || yaml.charCodeAt(i) === 9) i++;
  return yaml.charCodeAt(i) === 58 ? i + 1 : -1;
}

/**
 * Whether the next line from `at` with content (not blank, not a comment) is indented, up to `to`.
 * After a value, YAML folds such a line into it; at the top, the whole mapping is indented. Either
 * way the YAML parser decides.
 */
function nextContentIndented(text: string, at: number, to: number): boolean {
  let lineStart = at;
  for (let i = at; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) lineStart = i + 1;
    else if (c === 35) {
      const nl = text.indexOf('\n', i);
      if (nl === -1 || nl >= to) return false;
      i = nl;
      lineStart = nl + 1;
    } else if (c !== 32 && c !== 9 && c !== 13) return i > lineStart;
  }
  return false;
}

/**
 * The wanted keys read line by line from the YAML between `from` and `to` in the file's text, or
 * null when any of them needs the real parser. A scan by hand: a summary's frontmatter is mostly
 * lists the core does not read, and a regex over every line was the largest single cost of a full
 * derive after reading the files. It reads the file's own text by offsets (not a slice of it), so
 * each character is read straight rather than through the slice.
 */
function readKeys(text: string, from: number, to: number, keys: readonly string[]): Record<string, unknown> | null {
  const table = keyTable(keys);
  if (nextContentIndented(text, from, to)) return null;
  const data: Record<string, unknown> = {};
  for (let start = from; start < to; ) {
    let end = text.indexOf('\n', start);
    if (end === -1 || end > to) end = to;
    const candidates = table[text.charCodeAt(start)];
    if (candidates) {
      for (const key of candidates) {
        const value = valueAfterKey(text, start, key);
        if (value === -1 || value > end) continue;
        const raw = text.slice(value, text.charCodeAt(end - 1) === 13 ? end - 1 : end).trim();
        if (raw === '' || Object.prototype.hasOwnProperty.call(data, key)) return null;
        const scalar = plainScalar(raw);
        if (!scalar || nextContentIndented(text, end + 1, to)) return null;
        data[key] = scalar.value;
        break;
      }
    }
    start = end + 1;
  }
  return data;
}

// Characters YAML does not allow in a stream (js-yaml refuses them). Such text goes to js-yaml, which
// reports it, so the fast paths never accept what the parser (and so the writer) would refuse.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NON_PRINTABLE = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x84\x86-\x9F\uFFFE\uFFFF]/;

/** Deepest nesting of mappings and lists a frontmatter may have (GSD's is 2–3, our blocks 5). */
export const MAX_YAML_DEPTH = 32;
/**
 * Most values a frontmatter may hold with its aliases expanded. js-yaml shares an aliased value
 * rather than copying it, but anything that walks the data (JSON for `state --json`, a deep copy, a
 * fingerprint) expands it: a 40-line chain of aliases doubling each time is 2^40 values.
 */
export const MAX_YAML_VALUES = 10_000;

/** Why a loaded value is too deep or too big once expanded, or null. Stops at the first limit. */
function outOfBounds(value: unknown): string | null {
  let count = 0;
  const walk = (v: unknown, depth: number): string | null => {
    if (++count > MAX_YAML_VALUES) return `it holds more than ${MAX_YAML_VALUES} values once its aliases are expanded`;
    if (v === null || typeof v !== 'object') return null;
    if (depth >= MAX_YAML_DEPTH) return `it is nested deeper than ${MAX_YAML_DEPTH} levels`;
    const items = Array.isArray(v) ? v : Object.values(v as Record<string, unknown>);
    for (let i = 0; i < items.length; i++) {
      const why = walk(items[i], depth + 1);
      if (why) return why;
    }
    return null;
  };
  return walk(value, 0);
}

export function parseYaml(yaml: string, file: string, lineOffset: number): { data: Record<string, unknown>; diagnostics: Diagnostic[] } {
  const printable = !NON_PRINTABLE.test(yaml);
  const flat = printable ? parseGsdYamlSubset(yaml) : null;
  if (flat) return { data: flat, diagnostics: [] };
  try {
    const jsYaml = jsYamlLib();
    const value = jsYaml.load(yaml, { schema: jsYaml.CORE_SCHEMA, json: true });
    if (value === null || value === undefined) return { data: {}, diagnostics: [] };
    if (typeof value !== 'object' || Array.isArray(value)) {
      return { data: {}, diagnostics: [{ file, line: lineOffset, severity: 'error', message: 'frontmatter is not a YAML mapping (key: value lines); its keys were not read' }] };
    }
    const tooBig = outOfBounds(value);
    if (tooBig) return { data: {}, diagnostics: [{ file, line: lineOffset, severity: 'error', message: `frontmatter is refused: ${tooBig}; its keys were not read` }] };
    return { data: value as Record<string, unknown>, diagnostics: [] };
  } catch (error) {
    const mark = (error as { mark?: { line?: number } }).mark;
    // A stack overflow on absurd nesting is the parser's way of saying "too deep".
    const reason = error instanceof RangeError ? `it is nested too deeply` : ((error as { reason?: string }).reason ?? (error as Error).message);
    return {
      data: {},
      diagnostics: [{ file, line: lineOffset + (mark?.line ?? 0), severity: 'error', message: `frontmatter is not valid YAML: ${reason}` }],
    };
  }
}

export function parseFrontmatter(text: string, file: string, options: ParseOptions = {}): Frontmatter {
  const block = findFrontmatterBlock(text);
  if (!block.present) return { data: {}, body: text, bodyStartLine: 1, present: false, diagnostics: [] };
  const bodyStartLine = block.bodyStartLine;
  const body = text.slice(block.bodyStart);
  if (!block.closed) {
    // Half-written or hand-broken file: keep the body readable and say why the keys are missing.
    return {
      data: {},
      body,
      bodyStartLine,
      present: true,
      diagnostics: [{ file, line: 1, severity: 'error', message: 'frontmatter starts with --- but is never closed; its keys were not read' }],
    };
  }
  const yaml = block.yaml!;
  if (options.onlyKeys && !NON_PRINTABLE.test(yaml)) {
    const picked = readKeys(text, block.yamlStart, block.yamlEnd, options.onlyKeys);
    if (picked) return { data: picked, body, bodyStartLine, present: true, diagnostics: [] };
  }
  const { data, diagnostics } = parseYaml(yaml, file, 2);
  return { data, body, bodyStartLine, present: true, diagnostics };
}

/** A frontmatter value as GSD means it: a trimmed string, or undefined. */
export function fmString(data: Record<string, unknown>, key: string): string | undefined {
  const v = data[key];
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'string') return v.trim() || undefined;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

export function fmBoolean(data: Record<string, unknown>, key: string): boolean {
  const v = data[key];
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') return /^(true|yes|on)$/i.test(v.trim());
  return false;
}

export function fmRecord(data: Record<string, unknown>, key: string): Record<string, unknown> {
  const v = data[key];
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}
