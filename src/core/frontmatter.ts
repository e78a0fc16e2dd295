// Frontmatter through gray-matter, with a YAML engine that keeps GSD's values as written: js-yaml's
// CORE schema has no timestamp type, so `completed_at: 2026-05-10T14:02:11Z` stays a string.
// (js-yaml rather than the `yaml` package here: reading is the hot path, and it is ~10x faster.)
import matter from 'gray-matter';
import * as jsYaml from 'js-yaml';
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

const engines = {
  yaml: {
    parse: (text: string): object => {
      const value = jsYaml.load(text, { schema: jsYaml.CORE_SCHEMA, json: true });
      return value === null || value === undefined ? {} : (value as object);
    },
    stringify: (): string => {
      throw new Error('frontmatter writes go through frontmatter-block.ts, not gray-matter');
    },
  },
};

function countLines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

const CLOSING_LINE = /\r?\n---[ \t]*(?:\r?\n|$)/;

export function parseFrontmatter(text: string, file: string): Frontmatter {
  const diagnostics: Diagnostic[] = [];
  const startsWithFence = /^(?:\uFEFF)?---[ \t]*\r?\n/.test(text);
  if (!startsWithFence) {
    return { data: {}, body: text, bodyStartLine: 1, present: false, diagnostics };
  }
  const afterOpen = text.indexOf('\n') + 1;
  if (!CLOSING_LINE.test(text.slice(afterOpen - 1))) {
    // Half-written or hand-broken file: keep the body readable and say why the keys are missing.
    diagnostics.push({ file, line: 1, severity: 'error', message: 'frontmatter starts with --- but is never closed; its keys were not read' });
    return { data: {}, body: text.slice(afterOpen), bodyStartLine: 2, present: true, diagnostics };
  }
  try {
    const parsed = matter(text, { engines, language: 'yaml' });
    const data = parsed.data && typeof parsed.data === 'object' && !Array.isArray(parsed.data) ? parsed.data : {};
    if (data !== parsed.data) {
      diagnostics.push({ file, line: 2, severity: 'error', message: 'frontmatter is not a YAML mapping (key: value lines); its keys were not read' });
    }
    const bodyStartLine = countLines(text.slice(0, text.length - parsed.content.length)) + 1;
    return { data: data as Record<string, unknown>, body: parsed.content, bodyStartLine, present: true, diagnostics };
  } catch (error) {
    const mark = (error as { mark?: { line?: number } }).mark;
    const reason = (error as { reason?: string }).reason ?? (error as Error).message;
    diagnostics.push({
      file,
      line: mark?.line !== undefined ? mark.line + 2 : 1,
      severity: 'error',
      message: `frontmatter is not valid YAML: ${reason}`,
    });
    const close = CLOSING_LINE.exec(text.slice(afterOpen - 1));
    const bodyOffset = close ? afterOpen - 1 + close.index + close[0].length : text.length;
    return {
      data: {},
      body: text.slice(bodyOffset),
      bodyStartLine: countLines(text.slice(0, bodyOffset)) + 1,
      present: true,
      diagnostics,
    };
  }
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
