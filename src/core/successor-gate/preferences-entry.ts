// Our hook entries in the successor's PREFERENCES.md (gate-hook.ts OUR_ENTRIES: the review gate in
// `post_unit_hooks`, the open-issues pointer in `pre_dispatch_hooks`), added and taken out byte for
// byte. Every byte outside our lines stays as it was (comments, other hooks, other keys, CRLF), and
// each entry sits between two marker comments that say what was there before, so that uninstall
// gives back exactly the bytes install found, with no record kept anywhere else.
//
// How GSD reads the file (preferences.ts parsePreferencesMarkdownWithDiagnostics, 1.16.1): the
// frontmatter starts with `---\n` or `---\r\n` and ends at the first `\n---` after it; its text,
// with `\r` removed, goes to the `yaml` package. A file without that opening is read in the older
// "## Heading / - key: value" form when it has such a heading. We find the block the same way, and
// after each edit parse the result and check that GSD would read the same hooks plus (or minus)
// ours and nothing else changed; otherwise nothing is written.
import type * as YamlModule from 'yaml';
import { OUR_ENTRIES, type OurEntry } from './gate-hook';

// Loaded on first use: install and uninstall only.
let yamlModule: typeof YamlModule | undefined;
function yamlLib(): typeof YamlModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (yamlModule ??= require('yaml') as typeof YamlModule);
}

/** A PREFERENCES.md we will not edit, with the one line that says why. */
export class PreferencesEditRefused extends Error {
  override name = 'PreferencesEditRefused';
}

const MARK = '# >>> gsd-review-loop';
const END = '# <<< gsd-review-loop';
const RESTORES = '; uninstall restores ';
// GSD's "## Heading" preferences form (preferences.ts: /^##\s+\w/m).
const HEADING_FORM = /^##\s+\w/m;

interface Restore {
  /** The line our lines replaced (without its line ending). */
  line?: string;
  /** The file had no frontmatter: our fences go too. */
  frontmatter?: true;
}

interface Frontmatter {
  /** Offset of the first byte of the YAML (after `---` and its line ending). */
  start: number;
  /** Offset just after the `\n` that precedes the closing `---` line. */
  end: number;
}

/** The frontmatter as GSD finds it, or null when the file has none; throws when GSD would find no end. */
function findFrontmatter(text: string): Frontmatter | null {
  const open = text.startsWith('---\r\n') ? '---\r\n' : text.startsWith('---\n') ? '---\n' : null;
  if (!open) return null;
  const close = text.indexOf('\n---', open.length);
  if (close === -1) throw new PreferencesEditRefused('its frontmatter has no closing --- line where GSD looks for one, so GSD ignores the file; fix the frontmatter first');
  return { start: open.length, end: close + 1 };
}

function eolOf(text: string): string {
  const nl = text.indexOf('\n');
  return nl > 0 && text[nl - 1] === '\r' ? '\r\n' : '\n';
}

function parseBlock(yaml: string): YamlModule.Document.Parsed {
  const doc = yamlLib().parseDocument(yaml, { prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw new PreferencesEditRefused(`its frontmatter is not valid YAML (${doc.errors[0].message.split('\n')[0]}), so GSD cannot read it either; fix it first`);
  }
  if (doc.contents !== null && !yamlLib().isMap(doc.contents)) throw new PreferencesEditRefused('its frontmatter is not a mapping of keys, so GSD ignores it; fix it first');
  return doc;
}

/** The frontmatter's data as GSD's parser sees it (`\r` removed); {} without frontmatter. */
function dataOf(text: string): Record<string, unknown> {
  const fm = findFrontmatter(text);
  if (!fm) return {};
  const js = parseBlock(text.slice(fm.start, fm.end).replace(/\r/g, '')).toJS({ maxAliasCount: 100 }) as Record<string, unknown> | null;
  return js ?? {};
}

/**
 * PREFERENCES.md's frontmatter as GSD reads it (its fence rule, the `yaml` package, duplicate keys an
 * error): null with the reason when GSD would ignore the file. The gate reads its settings this way
 * too, so that it never runs with values GSD does not use.
 */
export function gsdPreferencesData(text: string): { data: Record<string, unknown> | null; problem?: string } {
  try {
    return { data: dataOf(text) };
  } catch (error) {
    return { data: null, problem: (error as Error).message };
  }
}

function listOf(data: Record<string, unknown>, key: string): unknown[] {
  const v = data[key];
  return Array.isArray(v) ? v : [];
}

function nameOf(hook: unknown): string | undefined {
  return hook && typeof hook === 'object' && typeof (hook as { name?: unknown }).name === 'string' ? (hook as { name: string }).name.trim() : undefined;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function lineStartOf(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

function lineEndOf(text: string, offset: number): number {
  const nl = text.indexOf('\n', offset);
  return nl === -1 ? text.length : nl + 1;
}

/** Our marked lines for one entry (begin marker, lines, end marker), each ending in `eol`. */
function markedBlock(entry: OurEntry, indent: string, body: string[], eol: string, restore: Restore | null): string {
  const begin = `${indent}${MARK} ${entry.listKey}: written by \`gsd-review install-hooks --host gsd\`${restore ? `${RESTORES}${JSON.stringify(restore)}` : ''}`;
  return [begin, ...body, `${indent}${END}`].map((l) => l + eol).join('');
}

interface Marked {
  listKey: string;
  from: number;
  to: number;
  restore: Restore;
}

/** Our marked regions in `text`, in file order: only inside the frontmatter (marker lines in the body are the user's text). */
function findMarked(text: string): Marked[] {
  const found: Marked[] = [];
  let fm: Frontmatter | null;
  try {
    fm = findFrontmatter(text);
  } catch {
    return found;
  }
  if (!fm) return found;
  let begin: Omit<Marked, 'to'> | null = null;
  for (let offset = fm.start; offset < fm.end; ) {
    const to = lineEndOf(text, offset);
    const line = text.slice(offset, to).trim();
    if (!begin) {
      if (line.startsWith(`${MARK} `)) {
        const listKey = line.slice(MARK.length + 1).split(':')[0];
        const at = line.indexOf(RESTORES);
        let restore: Restore;
        try {
          restore = at === -1 ? {} : (JSON.parse(line.slice(at + RESTORES.length)) as Restore);
        } catch {
          throw new PreferencesEditRefused('a marker line of our entries was changed; take our entries out by hand');
        }
        begin = { listKey, from: offset, restore };
      }
    } else if (line === END) {
      found.push({ ...begin, to });
      begin = null;
    }
    offset = to;
  }
  if (begin) throw new PreferencesEditRefused('one of our entries has a begin marker but no end marker; take our entries out by hand');
  return found;
}

const LIST_KEYS = [...new Set(OUR_ENTRIES.map((e) => e.listKey))];

/** Checks that GSD would read `after` as `before` with our entries added (or, for uninstall, taken out), nothing else. */
function verify(beforeText: string, afterText: string, adding: boolean): void {
  const before = dataOf(beforeText);
  const after = dataOf(afterText);
  const withoutOurs = (d: Record<string, unknown>, key: string) => listOf(d, key).filter((h) => !OUR_ENTRIES.some((e) => e.listKey === key && e.name === nameOf(h)));
  const rest = (d: Record<string, unknown>) => Object.fromEntries(Object.entries(d).filter(([k]) => !(LIST_KEYS as string[]).includes(k)));
  let fine = sameJson(rest(after), rest(before));
  for (const key of LIST_KEYS) {
    fine &&= sameJson(withoutOurs(after, key), withoutOurs(before, key));
    if (!adding) fine &&= sameJson(listOf(after, key), withoutOurs(before, key));
  }
  if (adding) for (const e of OUR_ENTRIES) fine &&= listOf(after, e.listKey).filter((h) => sameJson(h, e.values())).length === 1;
  if (!fine) throw new PreferencesEditRefused(`our entries could not be ${adding ? 'added' : 'taken out'} without changing how GSD reads the rest of the file; ${adding ? 'add' : 'remove'} them by hand`);
}

export type EntryState = 'absent' | 'ours' | 'ours-outdated' | 'foreign';

/**
 * `ours`: every entry of ours there, between our markers, as this version writes it; `ours-outdated`:
 * some of ours, not all, or older; `foreign`: a hook of one of our names that we did not write.
 */
export function gateEntryState(text: string | null): EntryState {
  if (text === null) return 'absent';
  const data = dataOf(text);
  const marked = findMarked(text);
  let ours = 0;
  let current = 0;
  for (const e of OUR_ENTRIES) {
    const named = listOf(data, e.listKey).filter((h) => nameOf(h) === e.name);
    if (named.length === 0) continue;
    if (named.length > 1 || !marked.some((m) => m.listKey === e.listKey)) return 'foreign';
    ours++;
    if (sameJson(named[0], e.values())) current++;
  }
  if (ours === 0) return 'absent';
  return current === OUR_ENTRIES.length ? 'ours' : 'ours-outdated';
}

/** The text with our entries added (or brought up to date); throws PreferencesEditRefused with the reason. */
export function addGateEntry(text: string | null): string {
  const source = text ?? '';
  if (source.charCodeAt(0) === 0xfeff) throw new PreferencesEditRefused('it starts with a byte-order mark, so GSD does not see its frontmatter; save it without one first');
  const state = gateEntryState(source);
  if (state === 'foreign') throw new PreferencesEditRefused(`it already has a hook named ${OUR_ENTRIES.map((e) => e.name).join(' or ')} that GSD Review Loop did not write; left as it is (rename that hook, then install again)`);
  if (state === 'ours') return source;
  // Older entries of ours, or markers left around entries taken out by hand: ours are written anew.
  let out = findMarked(source).length > 0 ? removeGateEntry(source) : source;
  for (const entry of OUR_ENTRIES) out = addEntry(out, entry);
  verify(source, out, true);
  return out;
}

function addEntry(text: string, entry: OurEntry): string {
  const eol = eolOf(text);
  const fm = findFrontmatter(text);
  if (!fm) {
    if (HEADING_FORM.test(text)) {
      throw new PreferencesEditRefused('it is written in GSD\'s "## Heading" form without frontmatter; frontmatter added to it would make GSD ignore those settings, so add our entries by hand (gsd-review install-hooks --host gsd --dry-run prints them)');
    }
    return `---${eol}${markedBlock(entry, '', [`${entry.listKey}:`, ...entry.lines('  ')], eol, { frontmatter: true })}---${eol}${text}`;
  }
  const doc = parseBlock(text.slice(fm.start, fm.end));
  const map = doc.contents as YamlModule.YAMLMap | null;
  const pair = map?.items.find((p) => yamlLib().isScalar(p.key) && (p.key as YamlModule.Scalar).value === entry.listKey);
  if (!pair) {
    // No such list yet: the key and our entry go last in the frontmatter.
    return text.slice(0, fm.end) + markedBlock(entry, '', [`${entry.listKey}:`, ...entry.lines('  ')], eol, null) + text.slice(fm.end);
  }
  const keyNode = pair.key as YamlModule.Scalar;
  const value = pair.value as YamlModule.Node | null;
  const keyStart = fm.start + keyNode.range![0];
  const keyLineStart = lineStartOf(text, keyStart);
  if (text.slice(keyLineStart, keyStart).trim() !== '') throw new PreferencesEditRefused(`its ${entry.listKey} key does not start its line; add our entries by hand`);
  if (value && yamlLib().isSeq(value) && !value.flow && value.items.length > 0) {
    // A block list of hooks: ours goes after the last one, with the list's own indentation.
    const first = fm.start + value.range![0];
    const itemIndent = text.slice(lineStartOf(text, first), text.lastIndexOf('-', first));
    const last = value.items[value.items.length - 1] as YamlModule.Node;
    const lastEnd = fm.start + last.range![1];
    const at = text[lastEnd - 1] === '\n' ? lastEnd : lineEndOf(text, lastEnd);
    return text.slice(0, at) + markedBlock(entry, itemIndent, entry.lines(itemIndent), eol, null) + text.slice(at);
  }
  const emptyFlow = value && yamlLib().isSeq(value) && value.flow && value.items.length === 0;
  const nothing = value === null || (yamlLib().isScalar(value) && value.value === null);
  if (!emptyFlow && !nothing) throw new PreferencesEditRefused(`its ${entry.listKey} is written in flow style ([...]) or is not a list; add our entries by hand (gsd-review install-hooks --host gsd --dry-run prints them)`);
  // `post_unit_hooks: []` (GSD's template) or an empty key: that one line is replaced, and kept in the marker.
  const lineEnd = lineEndOf(text, keyStart);
  if (value?.range && fm.start + value.range[2] > lineEnd) throw new PreferencesEditRefused(`its empty ${entry.listKey} spans several lines; add our entries by hand`);
  const line = text.slice(keyLineStart, lineEnd).replace(/\r?\n$/, '');
  return text.slice(0, keyLineStart) + markedBlock(entry, '', [`${entry.listKey}:`, ...entry.lines('  ')], eol, { line }) + text.slice(lineEnd);
}

/** Takes one marked region out: the bytes that were there before it come back. */
function removeRegion(text: string, marked: Marked): string {
  if (marked.restore.frontmatter) {
    // Our fences go too, if nothing else was added between them since.
    const fm = findFrontmatter(text);
    if (fm && marked.from === fm.start && marked.to === fm.end) return text.slice(lineEndOf(text, fm.end));
    return text.slice(0, marked.from) + text.slice(marked.to);
  }
  return text.slice(0, marked.from) + (marked.restore.line !== undefined ? marked.restore.line + eolOf(text) : '') + text.slice(marked.to);
}

/** The text without our entries: exactly what install found, when the rest was not changed since. */
export function removeGateEntry(text: string): string {
  let out = text;
  // Last in first out: the region that brought the fences goes last, when it is alone between them.
  for (let marked = findMarked(out); marked.length > 0; marked = findMarked(out)) {
    const next = marked.filter((m) => !m.restore.frontmatter).pop() ?? marked[marked.length - 1];
    out = removeRegion(out, next);
  }
  if (out !== text) verify(text, out, false);
  return out;
}
