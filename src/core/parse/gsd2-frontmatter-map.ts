// A frontmatter as GSD-2 itself reads it for its state (shared/frontmatter.ts, splitFrontmatter and
// parseFrontmatterMap at 76568edc): line by line into a flat map, not as YAML. Where the two differ
// GSD-2 decides what it runs, so the keys it reads so are read so here:
// - `key: value` is a string (surrounding quotes cut); `key: [a, b]` a list split at commas, items
//   trimmed but not unquoted; `key:` or `key: []` starts a list of `  - item` lines (two spaces);
// - an item `  - name: x` starts an object, which takes the `    prop: y` lines after it;
// - a line with a carriage return at its end matches nothing, so a CRLF frontmatter has no keys;
// - the block starts at `---` after leading blanks and ends at the first line starting with `---`.

const ITEM = /^ {2}- ?(.*)$/;
// GSD-2's `^(\w[\w_-]*)\s*:\s*(.*)$` in two linear steps (the regex backtracks quadratically on a
// run of blanks before a carriage return): the key and its colon, then the value, which has no line
// break (`.` stops at \r, \u2028 and \u2029, and `$` then fails).
const KEY_COLON = /^(\w[\w_-]*)\s*:/;
const LEADING_BLANKS = /^\s+/;
const LINE_BREAK = /[\r\u2028\u2029]/;

/** `key: value` from `indent` on: the key and the value (trimmed), or null when the line is not one. */
function keyValue(line: string, indent = 0): [string, string] | null {
  const text = indent === 0 ? line : line.slice(indent);
  const m = KEY_COLON.exec(text);
  if (!m) return null;
  const value = text.slice(m[0].length).replace(LEADING_BLANKS, '');
  return LINE_BREAK.test(value) ? null : [m[1], value.trim()];
}

function unquoted(s: string): string {
  const q = s[0];
  return s.length >= 2 && (q === '"' || q === "'") && s[s.length - 1] === q ? s.slice(1, -1) : s;
}

/** The frontmatter's lines, or null when GSD-2 finds no block. */
function blockLines(text: string): string[] | null {
  const start = text.trimStart();
  if (!start.startsWith('---')) return null;
  const firstLineEnd = start.indexOf('\n');
  if (firstLineEnd === -1) return null;
  const rest = start.slice(firstLineEnd + 1);
  const end = rest.indexOf('\n---');
  return end === -1 ? null : rest.slice(0, end).split('\n');
}

export function gsd2FrontmatterMap(text: string): Record<string, unknown> {
  const map: Record<string, unknown> = {};
  const lines = blockLines(text);
  if (!lines) return map;
  // The key whose list is being read; it stays set past a line that is no key (GSD-2's reading), so
  // items after such a line start the key's list again.
  let key: string | null = null;
  let list: unknown[] | null = null;
  let object: Record<string, string> | null = null;
  const flush = () => {
    if (key === null) return;
    if (object && Object.keys(object).length > 0 && list) list.push(object);
    object = null;
    if (list) map[key] = list;
    list = null;
  };
  for (const line of lines) {
    const nested = list && object && line.startsWith('    ') ? keyValue(line, 4) : null;
    if (nested) {
      object![nested[0]] = nested[1];
      continue;
    }
    const item = ITEM.exec(line);
    if (item && key !== null) {
      if (object && Object.keys(object).length > 0) list!.push(object);
      object = null;
      const value = item[1].trim();
      list ??= [];
      const starts = keyValue(value);
      if (starts) object = { [starts[0]]: starts[1] };
      else list.push(unquoted(value));
      continue;
    }
    flush();
    const kv = keyValue(line);
    if (!kv) continue;
    key = kv[0];
    const value = kv[1];
    if (value === '' || value === '[]') {
      list = [];
    } else if (value.startsWith('[') && value.endsWith(']')) {
      const inner = value.slice(1, -1).trim();
      map[key] = inner ? inner.split(',').map((s) => s.trim()) : [];
      key = null;
    } else {
      map[key] = unquoted(value);
      key = null;
    }
  }
  flush();
  return map;
}

/** A CONTEXT's `depends_on` as GSD-2 takes it (files.ts parseContextDependsOn): a list, or none. */
export function gsd2DependsOn(text: string): string[] {
  const raw = gsd2FrontmatterMap(text).depends_on;
  if (!Array.isArray(raw)) return [];
  return raw.map((d) => String(d).trim()).filter(Boolean);
}
