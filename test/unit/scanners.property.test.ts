// The full derive's hot paths scan by hand (fences, wanted frontmatter keys, the Known Issues section,
// slice plan lines). Each is checked here against the plain definition it stands for: a regex or a
// split into lines, written out in the test as the reference.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import { findFrontmatterBlock, parseFrontmatter } from '../../src/core/parse/frontmatter';
import { parseCodeReview } from '../../src/core/parse/code-review';
import { parseSlicePlan } from '../../src/core/parse/slice-plan';
import { boldLine, parseTaskSummary } from '../../src/core/parse/task-summary';

/** Reference: the fences as two regexes (how the block was found before the hand scan). */
function fencesByRegex(text: string) {
  const open = /^(\uFEFF)?---[ \t]*(\r?\n)/.exec(text);
  if (!open) return { present: false, closed: false };
  const yamlStart = open[0].length;
  const eol = open[2];
  const closing = /(^|\r?\n)---[ \t]*(?:\r?\n|$)/gm;
  closing.lastIndex = yamlStart;
  const close = closing.exec(text);
  if (!close) return { present: true, closed: false, yamlStart, eol };
  const yamlEnd = close.index + close[1].length;
  return { present: true, closed: true, yamlStart, yamlEnd, bodyStart: close.index + close[0].length, yaml: text.slice(yamlStart, yamlEnd), eol };
}

// Lone carriage returns are not line breaks in GSD files; the fragments never make one.
const fragment = fc.constantFrom('---', '--- ', '---\t', '----', '-', '\n', '\r\n', ' ', '\t', 'id: T01', 'a', ':', '\uFEFF', '#', '✅', 'x---');
const fencedText = fc.array(fragment, { maxLength: 24 }).map((parts) => parts.join(''));

describe('hand-written scanners agree with their plain definitions (fast-check)', () => {
  it('frontmatter fences: same block as the two regexes', () => {
    fc.assert(fc.property(fencedText, (text) => {
      const got = findFrontmatterBlock(text);
      const want = fencesByRegex(text);
      assert.equal(got.present, want.present, JSON.stringify(text));
      assert.equal(got.closed, want.closed, JSON.stringify(text));
      if (!want.present) return;
      assert.equal(got.yamlStart, want.yamlStart, JSON.stringify(text));
      assert.equal(got.eol, want.eol, JSON.stringify(text));
      if (!want.closed) return;
      assert.deepEqual([got.yaml, got.yamlEnd, got.bodyStart], [want.yaml, want.yamlEnd, want.bodyStart], JSON.stringify(text));
    }), { numRuns: 3000 });
  });

  const keys = ['id', 'parent', 'completed_at', 'blocker_discovered'];
  const key = fc.constantFrom('id', 'idx', 'parent', 'parents', 'completed_at', 'blocker_discovered', 'key_files', ' id', 'id ');
  const value = fc.constantFrom('T01', 'S01', '2026-05-10T14:02:11Z', 'false', 'true', '12', "'quoted'", '"dq"', '', 'a: b', '[a]', 'x # y', '~');
  const yamlLine = fc.oneof(
    fc.tuple(key, fc.constantFrom(':', ' :', '\t:'), fc.constantFrom(' ', '', '  '), value, fc.constantFrom('', '\r', ' ')).map((p) => p.join('')),
    fc.constantFrom('  - item', 'key_files:', '# comment', ''),
  );
  const frontmatter = fc.array(yamlLine, { maxLength: 10 }).map((lines) => `---\n${lines.join('\n')}\n---\n# Body\n`);

  it('wanted keys: whenever the line scan answers, it is what the YAML parser says', () => {
    fc.assert(fc.property(frontmatter, (text) => {
      const fast = parseFrontmatter(text, 'f.md', { onlyKeys: keys });
      const full = parseFrontmatter(text, 'f.md');
      if (full.diagnostics.length > 0) return;
      for (const k of keys) assert.deepEqual(fast.data[k], full.data[k], `${k} in ${JSON.stringify(text)}`);
    }), { numRuns: 2000 });
  });

  // Summary bodies from GSD's own lines and the markdown around them that changes structure: code
  // fences (closed, unclosed, longer, other character), empty and closed headings. Headings start at
  // column 0 and no line is indented by four spaces, as GSD writes them; random text lines start with a
  // letter so that they stay prose (a random `=` or `-` line would be a setext underline, which GSD
  // never writes).
  const summaryLine = fc.oneof(
    fc.constantFrom('## Known Issues', '## known issues', '##  Known Issues ##', '## Known Issues #', '## KNOWN ISSUES', '## Known_Issues', '## Known Issuesx', '## \u212Anown Issues', '## Known Issue', '# T01: Title', '## Deviations', '### Sub', '#', '##', '## ',
      'Pending actions:', '**Pending actions:**', 'PENDING ACTIONS', '- Measure it', '* Document it', '+ Plus', '- [ ] open box', '- [x] done already', '- None.',
      '```', '```markdown', '````', '~~~', '~~~~', ' ```', '``` x ```', 'Prose.', 'Text with ``` inside', ''),
    fc.tuple(fc.constantFrom('a', 'Z', 'k'), fc.string({ maxLength: 16 })).map(([a, b]) => (a + b).replace(/[\r\n]/g, '')),
  );
  const summaryBody = fc.array(summaryLine, { maxLength: 18 });

  /**
   * The reference, from markdown-it (a CommonMark parser): the first `##` heading named Known Issues
   * outside code, its section up to the next `#`/`##` heading, and the fenced lines. Within the section,
   * the list rule the README states: a `Pending actions:` line, then bullets (blank lines allowed)
   * until the first other line; ticked boxes and `None.` are not actions.
   */
  function knownIssuesByMarkdownIt(body: string, bodyStartLine: number) {
    const lines = body.split(/\r?\n/);
    const tokens = new MarkdownIt().parse(body, {});
    const fenced = new Set<number>();
    const headings: { line: number; level: number; text: string }[] = [];
    tokens.forEach((t, i) => {
      if (t.type === 'fence' && t.map) for (let l = t.map[0]; l < t.map[1]; l++) fenced.add(l);
      if (t.type === 'heading_open' && t.map) headings.push({ line: t.map[0], level: Number(t.tag.slice(1)), text: tokens[i + 1].content });
    });
    const known = headings.findIndex((h) => h.level === 2 && h.text.trim().toLowerCase() === 'known issues');
    if (known === -1) return { text: '', actions: [] };
    const start = headings[known].line + 1;
    const end = headings.slice(known + 1).find((h) => h.level <= 2)?.line ?? lines.length;
    const section = lines.slice(start, end);
    const actions: { text: string; line: number }[] = [];
    const label = section.findIndex((l, i) => !fenced.has(start + i) && /^\s*(\*\*|__)?pending actions:?(\*\*|__)?:?\s*$/i.test(l));
    if (label !== -1) {
      for (let i = label + 1; i < section.length; i++) {
        if (section[i].trim() === '') continue;
        const bullet = /^\s*[-*+]\s+(?:\[([ xX])\]\s+)?(\S.*)$/.exec(section[i]);
        if (!bullet || fenced.has(start + i)) break;
        const text = bullet[2].trimEnd();
        if ((bullet[1] && bullet[1] !== ' ') || /^(none\.?|n\/a)$/i.test(text)) continue;
        actions.push({ text, line: bodyStartLine + start + i });
      }
    }
    return { text: section.join('\n').trim(), actions };
  }

  it('Known Issues: the section and pending actions a CommonMark parser finds (headings in code fences are examples)', () => {
    fc.assert(fc.property(fc.boolean(), summaryBody, fc.boolean(), (fm, lines, crlf) => {
      const eol = crlf ? '\r\n' : '\n';
      const body = lines.join(eol);
      const text = (fm ? `---${eol}id: T01${eol}---${eol}` : '') + body;
      const want = knownIssuesByMarkdownIt(body, fm ? 4 : 1);
      const s = parseTaskSummary(text, 's.md');
      assert.equal(s.knownIssues, want.text, JSON.stringify(text));
      assert.deepEqual(s.pendingActions, want.actions, JSON.stringify(text));
    }), { numRuns: Number(process.env.GSD_PROPERTY_RUNS ?? 3000) });
  });

  // Review bodies: the Issues heading in its spellings, the headings that end it (an empty `##` is
  // one), look-alikes that are not headings to CommonMark, and code fences around either.
  const reviewLine = fc.constantFrom('## Issues', '## issues', '##  Issues ##', '## Issues #', '##\u00a0Issues', '##\fIssues', '## Issuesx', '## Notes', '# Review', '#', '##', '## ', '### Sub',
    '- [ ] **major** `src/a.ts:1` Error path untested.', '- [x] **minor** typo', '* [ ] star item', '+ [X] plus item', '- [ ]', '- plain bullet', '```', '```md', '~~~', 'Prose.', '');

  /** The reference, from markdown-it: the first `##` heading named Issues outside code, up to the next `#`/`##` heading. */
  function issueLinesByMarkdownIt(body: string, bodyStartLine: number): Array<[number, boolean]> {
    const tokens = new MarkdownIt().parse(body, {});
    const headings: { line: number; level: number; text: string }[] = [];
    tokens.forEach((t, i) => {
      if (t.type === 'heading_open' && t.map) headings.push({ line: t.map[0], level: Number(t.tag.slice(1)), text: tokens[i + 1].content });
    });
    const at = headings.findIndex((h) => h.level === 2 && h.text.trim().toLowerCase() === 'issues');
    if (at === -1) return [];
    const lines = body.split(/\r?\n/);
    const end = headings.slice(at + 1).find((h) => h.level <= 2)?.line ?? lines.length;
    const out: Array<[number, boolean]> = [];
    for (let i = headings[at].line + 1; i < end; i++) {
      const m = /^\s*[-*+]\s+\[([ xX])\]\s+(\S.*)?$/.exec(lines[i]);
      if (m) out.push([bodyStartLine + i, m[1] !== ' ']);
    }
    return out;
  }

  it('review Issues: the section a CommonMark parser finds, and its items', () => {
    fc.assert(fc.property(fc.array(reviewLine, { maxLength: 14 }), fc.boolean(), (lines, crlf) => {
      const eol = crlf ? '\r\n' : '\n';
      const text = `---${eol}task: T01${eol}cycle: 1${eol}---${eol}${lines.join(eol)}`;
      const review = parseCodeReview(text, 'T01-CODE-REVIEW.md');
      const got = [...review.openIssues, ...review.resolvedIssues].map((i): [number, boolean] => [i.line, i.resolved]).sort((a, b) => a[0] - b[0]);
      assert.deepEqual(got, issueLinesByMarkdownIt(lines.join(eol), 5), JSON.stringify(text));
    }), { numRuns: Number(process.env.GSD_PROPERTY_RUNS ?? 3000) });
  });

  it('bold one-liner: the line the regex finds, with the same text', () => {
    const ONE_LINER = /^[ \t]*\*\*(.+)\*\*[ \t]*\r?$/m;
    const piece = fc.constantFrom('**', '*', '***', ' ', '\t', '\r', '\n', '\r\n', '\u2028', '\u2029', 'a', 'Shipped it', '#', '✅', '\u00a0', '\f');
    fc.assert(fc.property(fc.array(piece, { maxLength: 14 }), fc.nat(3), fc.nat(3), (parts, cutFront, cutBack) => {
      const text = parts.join('');
      const from = Math.min(cutFront, text.length);
      const to = Math.max(from, text.length - cutBack);
      assert.equal(boldLine(text, from, to), ONE_LINER.exec(text.slice(from, to))?.[1], JSON.stringify([text, from, to]));
    }), { numRuns: 20000 });
  });

  const planLine = fc.oneof(
    fc.tuple(fc.constantFrom('', ' ', '  ', '\t', '\u00a0', '\f'), fc.constantFrom('- ', '* ', '+ ', '-', '-\t', '- \u00a0'), fc.constantFrom('[ ] ', '[x] ', '[X] ', '[?] ', ''),
      fc.constantFrom('**T01: Title** `est:30m`', '**T02: Other**', 'Files: `a.ts`', '**Files:** `b.ts`, `c.ts`', 'Verify: npm test', 'T03 loose', 'prose'))
      .map((p) => p.join('')),
    fc.constantFrom('### T04: Heading task', '## T05: Two', '# Title', '## Tasks', '```', '~~~', 'Files: `top.ts`', 'Verify: `top`', '**Goal:** x', 'plain prose', ''),
  );

  it('slice plan lines: same tasks as trying every pattern on every line', () => {
    fc.assert(fc.property(fc.array(planLine, { maxLength: 14 }), (lines) => {
      const plan = parseSlicePlan(lines.join('\n'), 1, 'p.md');
      const reference = referenceSlicePlan(lines);
      assert.deepEqual(plan.tasks.map((t) => [t.id, t.done, t.files, t.verify, t.line]), reference, JSON.stringify(lines));
    }), { numRuns: 2000 });
  });
});

/** The slice plan rules, every regex tried on every line (the shape of the parser before its line pre-checks). */
function referenceSlicePlan(lines: string[]): Array<[string, boolean, string[], string | undefined, number]> {
  const out: Array<[string, boolean, string[], string | undefined, number]> = [];
  const seen = new Set<string>();
  let current: { id: string; done: boolean; files: string[]; verify?: string; line: number; heading: boolean } | null = null;
  let inFence = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    if (inFence) continue;
    const box = /^\s*[-*+]\s+\[([ xX])\]\s+\*\*(T\d+)\s*[:.-]\s*(.*?)\*\*(.*)$/.exec(line);
    const head = box ? null : /^#{2,4}\s+(T\d+)\s*[:.-]\s*(.*?)\s*$/.exec(line);
    if (box || head) {
      const id = (box ? box[2] : head![1]).toUpperCase();
      if (seen.has(id)) {
        current = null;
        continue;
      }
      seen.add(id);
      current = { id, done: box ? box[1].toLowerCase() === 'x' : false, files: [], line: i + 1, heading: !box };
      out.push([id, current.done, current.files, undefined, i + 1]);
      continue;
    }
    if (/^\s*[-*+]\s+\[[^\]]*\]\s+\*{0,2}T\d+/.test(line)) continue;
    if (!current) continue;
    if (/^#{1,3}\s/.test(line)) {
      current = null;
      continue;
    }
    const detail = /^\s*[-*+]?\s*\*{0,2}(Files|Verify)\*{0,2}:\*{0,2}\s*(.*)$/i.exec(line);
    if (detail && (current.heading || /^\s+/.test(line))) {
      if (detail[1].toLowerCase() === 'files') {
        const ticked = [...detail[2].matchAll(/`([^`]+)`/g)].map((m) => m[1].trim());
        current.files.push(...(ticked.length > 0 ? ticked : detail[2].split(',').map((s) => s.trim()).filter(Boolean)));
      } else {
        out[out.length - 1][3] = detail[2].trim();
      }
    }
  }
  return out;
}
