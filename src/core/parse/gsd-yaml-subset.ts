// A fast path for the frontmatter GSD itself writes: flat `key: value` lines and `key:` followed by
// `  - item` lists. Scalars are typed by js-yaml's own CORE-schema types, so a value means exactly
// what js-yaml would make of it; anything outside this subset returns null and goes to js-yaml.
// (A property test checks the two agree.) It exists because YAML parsing was the largest cost of a
// full derive over 10,000 tasks after reading the files themselves.
import { jsYamlLib } from './js-yaml-lib';

interface ImplicitType {
  resolve(data: string): boolean;
  construct(data: string): unknown;
}

let implicit: ImplicitType[] | undefined;
const implicitTypes = (): ImplicitType[] => (implicit ??= (jsYamlLib().CORE_SCHEMA as unknown as { compiledImplicit: ImplicitType[] }).compiledImplicit);

// A value starts after the blanks and runs to the end of the line; its trailing blanks are cut in
// code (`(.*?)[ \t]*$` backtracks quadratically on one long line).
const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_-]*)[ \t]*:(?:[ \t]+([^ \t].*)?)?$/;
const ITEM_LINE = /^( *)-[ \t]+([^ \t].*)?$/;
const MAYBE_TYPED = /^[~nNtTfF+\-.0-9]/;

/** The text without its trailing spaces and tabs (only those: YAML's blanks). */
function trimBlanksEnd(s: string): string {
  let end = s.length;
  while (end > 0 && (s.charCodeAt(end - 1) === 32 || s.charCodeAt(end - 1) === 9)) end--;
  return end === s.length ? s : s.slice(0, end);
}

/** First characters of a plain scalar that mean something else to YAML (an indicator). */
const NOT_FIRST = new Set([...'-?:,[]{}#&*!|>\'"%@`'].map((c) => c.charCodeAt(0)));
const BLANK = /\s/;

/**
 * Whether js-yaml reads `raw` as the plain text it is: no indicator or blank first, no tab, no `: `
 * or ` #` inside and no `:` at the end (the regex `^[^-?:,[\]{}#&*!|>'"%@`\s][^\t]*$` and three
 * searches, which the property test keeps as the reference). One pass by hand: a full derive asks
 * this of every value it reads, and the regex and searches were a fifth of reading a summary's
 * frontmatter. A first character past ASCII is asked of `\s`, which knows Unicode's blanks.
 */
export function isSafePlain(raw: string): boolean {
  if (raw.length === 0) return false;
  const first = raw.charCodeAt(0);
  if (NOT_FIRST.has(first) || first === 32 || (first >= 9 && first <= 13)) return false;
  if (first > 127 && BLANK.test(raw[0])) return false;
  for (let i = 1; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 9) return false;
    if (c === 32 && raw.charCodeAt(i + 1) === 35) return false;
    if (c === 58 && (i === raw.length - 1 || raw.charCodeAt(i + 1) === 32)) return false;
  }
  return true;
}

/** A plain or simply-quoted scalar as js-yaml would load it, or undefined when not that simple. */
export function plainScalar(raw: string): { value: unknown } | undefined {
  if (raw.length >= 2 && raw[0] === "'" && raw[raw.length - 1] === "'") {
    const inner = raw.slice(1, -1);
    return inner.includes("'") ? undefined : { value: inner };
  }
  if (raw.length >= 2 && raw[0] === '"' && raw[raw.length - 1] === '"') {
    const inner = raw.slice(1, -1);
    return inner.includes('"') || inner.includes('\\') ? undefined : { value: inner };
  }
  if (!isSafePlain(raw)) return undefined;
  // Only these first characters can start a CORE null, bool, int or float; skip the resolvers otherwise.
  if (MAYBE_TYPED.test(raw)) for (const type of implicitTypes()) if (type.resolve(raw)) return { value: type.construct(raw) };
  return { value: raw };
}

export function parseGsdYamlSubset(yaml: string): Record<string, unknown> | null {
  const data: Record<string, unknown> = {};
  let listKey: string | null = null;
  let listIndent = -1;
  let list: unknown[] | null = null;
  let start = 0;
  while (start <= yaml.length) {
    let end = yaml.indexOf('\n', start);
    if (end === -1) end = yaml.length;
    let line = yaml.slice(start, end);
    start = end + 1;
    if (line.endsWith('\r')) line = line.slice(0, -1);
    const trimmed = line.trimStart();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    if (listKey !== null) {
      const item = ITEM_LINE.exec(line);
      if (item && (listIndent === -1 || item[1].length === listIndent)) {
        listIndent = item[1].length;
        const s = plainScalar(trimBlanksEnd(item[2] ?? ''));
        if (!s) return null;
        (list ??= []).push(s.value);
        data[listKey] = list;
        continue;
      }
    }
    const m = KEY_LINE.exec(line);
    if (!m || Object.prototype.hasOwnProperty.call(data, m[1]) || m[1] === '__proto__') return null;
    listKey = null;
    list = null;
    listIndent = -1;
    if (m[2] === undefined || m[2] === '') {
      data[m[1]] = null;
      listKey = m[1];
      continue;
    }
    const s = plainScalar(trimBlanksEnd(m[2]));
    if (!s) return null;
    data[m[1]] = s.value;
  }
  return data;
}
