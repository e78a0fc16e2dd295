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

// `file:57`, `file:57:3` (column), `file:57-60` (a range: its first line), `file#L57`, `file (line 57)`.
const WITH_LINE = /^(.+?)(?::(\d+)(?::\d+)?(?:-\d+)?|#L(\d+)(?:-L?\d+)?|\s+\(line (\d+)\))$/i;
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
  const m = WITH_LINE.exec(text);
  if (m) {
    const digits = m[2] ?? m[3] ?? m[4];
    const line = Number(digits);
    const p = cleanPath(m[1]);
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
