// Where a review finding points: `src/rules-file.ts:57` in our review files (the backticked place
// after the severity), or a `path:line` written somewhere in the text of one of GSD's rework-brief
// findings. Only places inside the project count: an absolute path, a `..` that climbs out, or a
// URL is no place in the code, and the finding stays on its review file.

export interface FindingLocation {
  /** Relative to the project root, with `/` separators and no `./`. */
  path: string;
  /** 1-based; null when the finding names the file but no line. */
  line: number | null;
}

// `file:57`, `file:57:3` (column), `file:57-60` (a range: its first line), `file#L57`, `file (line 57)`:
// each tail is matched from a cut found by search, anchored at both ends, so no pattern backtracks
// over the path (a lazy `(.+?)` before the tails scanned quadratically).
const COLON_TAIL = /^:(\d+)(?::\d+)?(?:-\d+)?$/;
const ANCHOR_TAIL = /^#L(\d+)(?:-L?\d+)?$/i;
const WORDS_TAIL = /^\s+\(line (\d+)\)$/i;
const isBlank = (c: string): boolean => c === ' ' || c === '\t';

/** The place split into its path and line digits, the shortest path first (as the lazy pattern had it). */
function splitPlace(text: string): { path: string; digits: string } | null {
  let best: { cut: number; digits: string } | null = null;
  const consider = (cut: number, tail: RegExp): void => {
    if (cut <= 0 || (best && cut >= best.cut)) return;
    const m = tail.exec(text.slice(cut));
    if (m) best = { cut, digits: m[1] };
  };
  // A colon tail holds at most two more colons: only the last three colons can start one.
  const colons: number[] = [];
  for (let at = text.lastIndexOf(':'); at > 0 && colons.length < 3; at = text.lastIndexOf(':', at - 1)) colons.push(at);
  for (const at of colons.reverse()) consider(at, COLON_TAIL);
  consider(text.lastIndexOf('#'), ANCHOR_TAIL);
  let open = text.lastIndexOf('(');
  while (open > 0 && isBlank(text[open - 1])) open--;
  consider(open, WORDS_TAIL);
  const found = best as { cut: number; digits: string } | null;
  return found ? { path: text.slice(0, found.cut), digits: found.digits } : null;
}

/** The longest path we take as one: a finding's place is a source file, not a paragraph. */
const MAX_PATH = 400;

function cleanPath(raw: string): string | null {
  let p = raw.trim().replace(/\\/g, '/');
  if (!p || p.length > MAX_PATH) return null;
  if (/\s/.test(p)) return null;
  if (/^[a-z][a-z0-9+.-]*:/i.test(p)) return null; // a URL or a drive letter
  if (p.startsWith('/')) return null;
  while (p.startsWith('./')) p = p.slice(2);
  const parts: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') return null;
    parts.push(part);
  }
  if (parts.length === 0) return null;
  return parts.join('/');
}

/** A finding's place as the review wrote it, or null when it is not a place inside the project. */
export function parseFindingLocation(raw: string): FindingLocation | null {
  const text = raw.trim();
  const m = splitPlace(text);
  if (m) {
    const line = Number(m.digits);
    const p = cleanPath(m.path);
    if (!p || !Number.isSafeInteger(line)) return null;
    return { path: p, line: line >= 1 ? line : null };
  }
  const p = cleanPath(text);
  // A bare word is not a file: the place must look like one (a folder or an extension).
  return p && /[/.]/.test(p) ? { path: p, line: null } : null;
}

// In free text: a backticked place first, else a bare `dir/file.ext:57`.
const BACKTICKED = /`([^`\n]{1,400})`/g;
const BARE = /(?:^|[\s(])((?:[\w.-]+\/)*[\w.-]+\.[A-Za-z0-9]+:\d+)/;

/** The first place with a line in a finding's free text (GSD's rework briefs have no field for it). */
export function locationInText(text: string): FindingLocation | null {
  for (const m of text.matchAll(BACKTICKED)) {
    const loc = parseFindingLocation(m[1]);
    if (loc && loc.line !== null) return loc;
  }
  const bare = BARE.exec(text);
  if (bare) {
    const loc = parseFindingLocation(bare[1]);
    if (loc && loc.line !== null) return loc;
  }
  return null;
}
