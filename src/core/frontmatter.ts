// Frontmatter: the YAML block between `---` fences at the top of a GSD markdown file.
// Values are kept as GSD wrote them: js-yaml's CORE schema has no timestamp type, so
// `completed_at: 2026-05-10T14:02:11Z` stays a string (the YAML 1.1 default would make it a Date).
// Reading is the hot path of a full derive (17,000 files at 10,000 tasks): js-yaml parses ~10x
// faster than the `yaml` package, which we keep for byte-preserving writes, and the fences are found
// here: gray-matter (which the design first named) cost ~70 ms of a 440 ms derive in per-call
// overhead alone (npm run bench, 10,000 tasks), and we use none of what it adds.
import * as jsYaml from 'js-yaml';
import { parseGsdYamlSubset, plainScalar } from './gsd-yaml-subset';
import type { Diagnostic } from './types';

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
}

const OPENING = /^(\uFEFF)?---[ \t]*(\r?\n)/;
const CLOSING = /(^|\r?\n)---[ \t]*(?:\r?\n|$)/gm;

/** Finds the fences without parsing anything; shared by reading and by the byte-preserving writer. */
export function findFrontmatterBlock(text: string): FrontmatterBlock {
  const open = OPENING.exec(text);
  if (!open) return { yaml: null, yamlStart: 0, yamlEnd: 0, bodyStart: 0, eol: '\n', present: false, closed: false };
  const yamlStart = open[0].length;
  const eol = open[2] === '\r\n' ? '\r\n' : '\n';
  // `^` with the m flag also matches at yamlStart, so an empty block (--- right after ---) closes.
  CLOSING.lastIndex = yamlStart;
  const close = CLOSING.exec(text);
  if (!close) return { yaml: null, yamlStart, yamlEnd: text.length, bodyStart: yamlStart, eol, present: true, closed: false };
  const yamlEnd = close.index + close[1].length;
  return { yaml: text.slice(yamlStart, yamlEnd), yamlStart, yamlEnd, bodyStart: close.index + close[0].length, eol, present: true, closed: true };
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

const keyPatterns = new Map<string, RegExp>();

function keyLines(keys: readonly string[]): RegExp {
  const id = keys.join('|');
  let re = keyPatterns.get(id);
  if (!re) {
    re = new RegExp(`^(${keys.map((k) => k.replace(/[^\w-]/g, '')).join('|')})[ \\t]*:(.*)$`, 'gm');
    keyPatterns.set(id, re);
  }
  return re;
}

/** The wanted keys read line by line, or null when any of them needs the real parser. */
function readKeys(yaml: string, keys: readonly string[]): Record<string, unknown> | null {
  const re = keyLines(keys);
  re.lastIndex = 0;
  const data: Record<string, unknown> = {};
  for (let m = re.exec(yaml); m; m = re.exec(yaml)) {
    const raw = m[2].replace(/\r$/, '').trim();
    if (raw === '' || Object.prototype.hasOwnProperty.call(data, m[1])) return null;
    const value = plainScalar(raw);
    if (!value) return null;
    data[m[1]] = value.value;
  }
  return data;
}

export function parseYaml(yaml: string, file: string, lineOffset: number): { data: Record<string, unknown>; diagnostics: Diagnostic[] } {
  const flat = parseGsdYamlSubset(yaml);
  if (flat) return { data: flat, diagnostics: [] };
  try {
    const value = jsYaml.load(yaml, { schema: jsYaml.CORE_SCHEMA, json: true });
    if (value === null || value === undefined) return { data: {}, diagnostics: [] };
    if (typeof value !== 'object' || Array.isArray(value)) {
      return { data: {}, diagnostics: [{ file, line: lineOffset, severity: 'error', message: 'frontmatter is not a YAML mapping (key: value lines); its keys were not read' }] };
    }
    return { data: value as Record<string, unknown>, diagnostics: [] };
  } catch (error) {
    const mark = (error as { mark?: { line?: number } }).mark;
    const reason = (error as { reason?: string }).reason ?? (error as Error).message;
    return {
      data: {},
      diagnostics: [{ file, line: lineOffset + (mark?.line ?? 0), severity: 'error', message: `frontmatter is not valid YAML: ${reason}` }],
    };
  }
}

export function parseFrontmatter(text: string, file: string, options: ParseOptions = {}): Frontmatter {
  const block = findFrontmatterBlock(text);
  if (!block.present) return { data: {}, body: text, bodyStartLine: 1, present: false, diagnostics: [] };
  const bodyStartLine = countLines(text, block.bodyStart) + 1;
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
  if (options.onlyKeys) {
    const picked = readKeys(yaml, options.onlyKeys);
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

export function fmStringList(data: Record<string, unknown>, key: string): string[] {
  const v = data[key];
  if (Array.isArray(v)) return v.filter((x) => x !== null && x !== undefined).map((x) => String(x).trim()).filter(Boolean);
  if (typeof v === 'string' && v.trim()) return [v.trim()];
  return [];
}

export function fmRecord(data: Record<string, unknown>, key: string): Record<string, unknown> {
  const v = data[key];
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}
