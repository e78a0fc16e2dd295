// The successor reader's line patterns (and the GSD-2 database's milestone title) were rewritten so
// that no two quantifiers compete for the same characters (test/unit/regex-safety.test.ts). The
// reference here is the code as it was, with its old patterns, written out in the test: on realistic
// lines (short, so the old patterns are fast) both give the same result. Lines never hold a lone
// carriage return or U+2028/U+2029 (splitLines cuts at `\r?\n`; GSD writes neither inside a line).
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { milestoneTitle } from '../../src/core/gsd2-database/milestone-registry';
import { isFence, splitLines } from '../../src/core/parse/markdown-sections';
import { parseFlatSlicePlan, type FlatPlanTask, type FlatSlicePlan } from '../../src/core/parse/flat-slice-plan';
import { knownIssuesFromText, type KnownIssueLine } from '../../src/core/successor/known-issue-actions';
import { contextTitle, parseRoadmapSlices, roadmapHeading } from '../../src/core/successor/phase-layout';

// ---- The old patterns and the code around them, as they were before the rewrite. ----

const OLD = {
  TITLE: /^#\s+([SR]\d+)\s*[:.-]\s*(.*?)\s*$/i,
  FIELD: /^\*\*(Milestone|Slice|Goal):\*\*\s*(.*?)\s*$/i,
  TASKS_OPEN: /^\s*<tasks>\s*$/i,
  TASKS_CLOSE: /^\s*<\/tasks>\s*$/i,
  TASK_LINE: /^\s*[-*+]\s+\[([ xX])\]\s+\*\*(T\d+)\*\*\s*:?\s*(.*?)\s*$/,
  TASK_LINE_INNER: /^\s*[-*+]\s+\[([ xX])\]\s+\*\*(T\d+)\s*[:.-]\s*(.*?)\*\*\s*(.*?)\s*$/,
  TASK_LIKE: /^\s*[-*+]\s+\[[^\]]*\]\s+\*{0,2}T\d+/,
  ESTIMATE: /\s*_\(([^)]*)\)_\s*$/,
  DETAIL: /^\s+[-*+]\s+(Files|Verify):\s*(.*)$/i,
  CODE_SPAN: /`([^`]+)`/g,
  BULLET: /^\s*(?:[-*+]|\d{1,3}[.)])\s+(?:\[([ xX])\]\s+)?(.+?)\s*$/,
  EMPTY: /^(none\.?|n\/a\.?|-|—)$/i,
  HEADING: /^#{1,6}\s/,
  ROADMAP_TITLE: /^#\s+(M\d+(?:-[a-z0-9]{6})?)\s*[:.-]\s*(.*?)\s*$/i,
  HEADING_TITLE: /^#\s+(.+?)\s*$/m,
  ROADMAP_SLICE: /^\s*[-*+]\s+\[([ xX])\]\s+\*\*([SR]\d+)\s*[:.-]\s*(.*?)\*\*(.*)$/i,
  RISK: /`risk:([^`\s]+)`/i,
  DEPENDS: /`depends:\[([^\]]*)\]`/i,
  DEMO: /^\s*>\s*After this:\s*(.*)$/i,
  MILESTONE_PREFIX: /^M\d+(?:-[a-z0-9]{6})?[^:]*:\s*/,
};

function oldFlatSlicePlan(text: string, file: string): FlatSlicePlan {
  const lines = splitLines(text);
  const plan: FlatSlicePlan = { title: '', hasTasksBlock: false, tasks: [], diagnostics: [] };
  let inTasks = false;
  let inFence = false;
  let current: FlatPlanTask | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (isFence(line)) inFence = !inFence;
    if (inFence) continue;
    if (!inTasks) {
      if (OLD.TASKS_OPEN.test(line)) {
        inTasks = true;
        plan.hasTasksBlock = true;
        continue;
      }
      const t = !plan.title ? OLD.TITLE.exec(line) : null;
      if (t) {
        plan.sliceId ??= t[1].toUpperCase();
        plan.title = t[2] || t[1].toUpperCase();
        continue;
      }
      const f = OLD.FIELD.exec(line);
      if (f) {
        const key = f[1].toLowerCase();
        if (key === 'milestone' && f[2]) plan.milestoneId = f[2];
        else if (key === 'slice' && f[2]) plan.sliceId = f[2].toUpperCase();
        else if (key === 'goal' && f[2]) plan.goal = f[2];
      }
      continue;
    }
    if (OLD.TASKS_CLOSE.test(line)) {
      inTasks = false;
      current = undefined;
      continue;
    }
    const inner = OLD.TASK_LINE_INNER.exec(line);
    const m = inner ?? OLD.TASK_LINE.exec(line);
    if (m) {
      let title = inner ? inner[3] : m[3];
      const rest = inner ? inner[4] : m[3];
      const est = OLD.ESTIMATE.exec(rest);
      if (est && !inner) title = title.slice(0, est.index);
      current = { id: m[2].toUpperCase(), title: title.trim() || m[2].toUpperCase(), done: m[1] !== ' ', files: [], line: i + 1 };
      if (est?.[1].trim()) current.estimate = est[1].trim();
      if (plan.tasks.some((t) => t.id === current!.id)) {
        plan.diagnostics.push({ file, line: i + 1, severity: 'warning', message: `task ${current.id} is listed twice in the plan; the first one counts` });
        current = undefined;
        continue;
      }
      plan.tasks.push(current);
      continue;
    }
    const d = current ? OLD.DETAIL.exec(line) : null;
    if (d && current) {
      if (d[1].toLowerCase() === 'files') current.files = [...d[2].matchAll(OLD.CODE_SPAN)].map((c) => c[1]);
      else current.verify = d[2].trim() || undefined;
      continue;
    }
    if (OLD.TASK_LIKE.test(line)) {
      plan.diagnostics.push({ file, line: i + 1, severity: 'warning', message: 'task line not understood: expected "- [ ] **T01**: Title _(estimate)_"' });
    }
  }
  if (inTasks) plan.diagnostics.push({ file, severity: 'warning', message: '<tasks> block is never closed; the tasks up to the end of the file were read' });
  return plan;
}

function oldKnownIssues(text: string, firstLine?: number): KnownIssueLine[] {
  const lines = splitLines(text);
  const out: KnownIssueLine[] = [];
  const lineOf = (i: number) => (firstLine === undefined ? undefined : firstLine + i);
  if (lines.some((l) => OLD.BULLET.test(l))) {
    lines.forEach((l, i) => {
      const m = OLD.BULLET.exec(l);
      if (!m || (m[1] && m[1] !== ' ') || OLD.EMPTY.test(m[2])) return;
      out.push({ text: m[2], line: lineOf(i) });
    });
    return out;
  }
  let para: string[] = [];
  let paraStart = 0;
  const flush = () => {
    const t = para.join(' ').trim();
    if (t && !OLD.EMPTY.test(t)) out.push({ text: t, line: lineOf(paraStart) });
    para = [];
  };
  lines.forEach((l, i) => {
    if (!l.trim() || OLD.HEADING.test(l)) return flush();
    if (para.length === 0) paraStart = i;
    para.push(l.trim());
  });
  flush();
  return out;
}

function oldRoadmapSlices(text: string) {
  const out = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = OLD.ROADMAP_SLICE.exec(lines[i]);
    if (!m) continue;
    const demo = OLD.DEMO.exec(lines[i + 1] ?? '')?.[1]?.trim();
    out.push({
      id: m[2].toUpperCase(),
      title: m[3].trim() || m[2].toUpperCase(),
      roadmapDone: m[1] !== ' ',
      risk: OLD.RISK.exec(m[4])?.[1],
      depends: (OLD.DEPENDS.exec(m[4])?.[1] ?? '').split(',').map((s) => s.trim().toUpperCase()).filter(Boolean),
      demo: demo || undefined,
      roadmapLine: i + 1,
    });
  }
  return out;
}

function oldRoadmapHeading(text: string): { id: string; title: string } | null {
  const t = OLD.ROADMAP_TITLE.exec(text.split('\n', 5).find((l) => l.startsWith('# ')) ?? '');
  if (!t) return null;
  const id = t[1].replace(/^m/, 'M');
  return { id, title: t[2] || id };
}

function oldContextTitle(text: string): string | undefined {
  const h = OLD.HEADING_TITLE.exec(text)?.[1];
  return h ? h.replace(/^M\d+(?:-[a-z0-9]{6})?\s*[:.-]\s*/i, '') : undefined;
}

// ---- Realistic pieces of GSD's lines, and the odd characters that break naive parsing. ----

const join = (parts: fc.Arbitrary<string>[]) => fc.tuple(...parts).map((p) => p.join(''));
const blank = fc.constantFrom('', ' ', '  ', '\t', ' \t ');
const gap = fc.constantFrom(' ', '  ', '\t');
const trailing = fc.constantFrom('', '', ' ', '  ', '\t', ' \u00a0');
const word = fc.constantFrom('Build', 'the cart', 'checkout', 'a:b', 'Stripe-API', 'é', '—', '42', 'x.y', '(note)', '`code`', 'none', 'None.');
const odd = fc.constantFrom('**', '*', '_', '_(', ')', ')_', '(', ':', '`', '[', ']', '_(30m)_', '_()_', '_(1h 30m)_', ' ', '\t', '  ');
const soup = (min: number) => fc.array(fc.oneof({ weight: 3, arbitrary: word }, { weight: 2, arbitrary: odd }), { minLength: min, maxLength: 7 }).map((p) => p.join(''));
const eol = fc.constantFrom('\n', '\r\n');
const bulletMark = fc.constantFrom('-', '*', '+');
const box = fc.constantFrom('[ ]', '[x]', '[X]', '[-]', '[]');
const sep = fc.constantFrom(':', ' :', '.', '-', ' - ', ': ', '', '::');

const taskId = fc.constantFrom('T01', 'T1', 'T12', 't01', 'T', 'S01');
const estimate = fc.constantFrom('', '', ' _(30m)_', '_(1h)_', ' _()_', ' _(a)_ _(2h)_', '_(x_(45m)_');
const taskLine = fc.oneof(
  // `- [x] **T01**: Title _(30m)_`
  join([blank, bulletMark, gap, box, gap, taskId.map((id) => `**${id}**`), sep, blank, soup(0), estimate, trailing]),
  // `- [x] **T01: Title** rest`
  join([blank, bulletMark, gap, box, gap, taskId.map((id) => `**${id}`), sep, blank, soup(0), fc.constantFrom('**', '**', ''), blank, soup(0), estimate, trailing]),
);
const detailLine = join([blank, bulletMark, gap, fc.constantFrom('Files:', 'files:', 'Verify:', 'VERIFY:', 'Files :'), blank,
  fc.array(fc.constantFrom('`src/a.ts`', '`b.ts`', ', ', 'npm test', '`', ' ', 'x'), { maxLength: 5 }).map((p) => p.join('')), trailing]);
const planTitle = join([fc.constantFrom('#', '# ', '#\t', '## '), blank, fc.constantFrom('S01', 's02', 'R01', 'S1', 'T01'), sep, blank, soup(0), trailing]);
const field = join([fc.constantFrom('**Milestone:**', '**Slice:**', '**Goal:**', '**goal:**', '**Other:**', '**Goal**:'), blank, soup(0), trailing]);
const plan = fc.tuple(planTitle, fc.array(field, { maxLength: 3 }), fc.array(fc.tuple(taskLine, fc.option(detailLine), fc.option(detailLine)), { maxLength: 5 }), eol)
  .map(([title, fields, tasks, nl]) => [title, ...fields, '', '<tasks>', ...tasks.flatMap(([t, d1, d2]) => [t, d1, d2].filter((l): l is string => l !== null)), '</tasks>', ''].join(nl));

const issueBullet = join([blank, fc.constantFrom('-', '*', '+', '1.', '12)', '1234.', '1'), gap, fc.constantFrom('', '[ ] ', '[x] ', '[X]  ', '[] '), word, soup(0), trailing]);
const issueText = fc.tuple(fc.array(fc.oneof(issueBullet, fc.constantFrom('None.', 'n/a', 'Some paragraph', '', '## Heading', '  indented text', '—')), { maxLength: 6 }), eol)
  .map(([lines, nl]) => lines.join(nl));

const sliceId = fc.constantFrom('S01', 'R01', 's02', 'S1', 'T01');
const tag = fc.constantFrom('`risk:high`', '`risk:`', '`Risk:low`', '`depends:[S01]`', '`depends:[S01, s02]`', '`depends:[]`', '`depends:[`', '`DEPENDS:[S03]`', '`depends:[S04]x', ']', '`', ' ', 'text', '`depends:[S05]`');
const sliceLine = join([blank, bulletMark, gap, box, gap, sliceId.map((id) => `**${id}`), sep, blank, soup(0), fc.constantFrom('**', '**', ''),
  fc.array(tag, { maxLength: 5 }).map((p) => p.join('')), trailing]);
const demoLine = join([blank, fc.constantFrom('>', '> '), blank, fc.constantFrom('After this:', 'after this:', 'After this'), blank, soup(0), trailing]);
const roadmap = fc.array(fc.oneof(sliceLine, demoLine, fc.constantFrom('', '# M001: Title', '## Slices', 'text')), { maxLength: 8 }).map((l) => l.join('\n'));

const milestoneId = fc.constantFrom('M001', 'm002', 'M001-abc123', 'M001-ABC123', 'M1', 'M001-abc', 'S01');
const headingLine = join([fc.constantFrom('# ', '#\t', '#  '), milestoneId, sep, blank, soup(0), trailing]);
const roadmapText = fc.tuple(fc.array(fc.oneof(headingLine, fc.constantFrom('', 'text', '## Slices', '#NoSpace', '# Plain title')), { maxLength: 6 }), eol)
  .map(([l, nl]) => l.join(nl));
const contextText = fc.tuple(fc.array(fc.oneof(headingLine, join([fc.constantFrom('# ', '#\t', '## ', ' # ', '#'), word, soup(0), trailing]), fc.constantFrom('', 'text', 'Intro.')), { maxLength: 6 }), eol)
  .map(([l, nl]) => l.join(nl));

const dbTitle = join([fc.constantFrom('M', 'M0', 'M001', 'm001', 'M001-abc123', 'M12x', ''), fc.array(fc.constantFrom('abc', ':', ' ', '\t', '-', 'Title', '1', 'é'), { maxLength: 6 }).map((p) => p.join(''))]);

describe('successor line patterns: the rewrite reads what the old patterns read (fast-check)', () => {
  it('flat slice plans: same title, fields, tasks, estimates, files, verify and diagnostics', () => {
    fc.assert(fc.property(plan, (text) => {
      assert.deepEqual(parseFlatSlicePlan(text, 'p.md'), oldFlatSlicePlan(text, 'p.md'), JSON.stringify(text));
    }), { numRuns: 3000 });
  });

  it('known issues: same bullets (ticked ones dropped) or paragraphs', () => {
    fc.assert(fc.property(issueText, (text) => {
      assert.deepEqual(knownIssuesFromText(text, 10), oldKnownIssues(text, 10), JSON.stringify(text));
    }), { numRuns: 3000 });
  });

  it('roadmap slice lines: same ids, titles, marks, risk, depends and demo lines', () => {
    fc.assert(fc.property(roadmap, (text) => {
      assert.deepEqual(parseRoadmapSlices(text), oldRoadmapSlices(text), JSON.stringify(text));
    }), { numRuns: 3000 });
  });

  it('roadmap and context headings: same milestone id and title', () => {
    fc.assert(fc.property(roadmapText, (text) => {
      assert.deepEqual(roadmapHeading(text), oldRoadmapHeading(text), JSON.stringify(text));
    }), { numRuns: 2000 });
    fc.assert(fc.property(contextText, (text) => {
      assert.equal(contextTitle(text), oldContextTitle(text), JSON.stringify(text));
    }), { numRuns: 2000 });
  });

  it('GSD-2 database milestone titles: same prefix stripped', () => {
    fc.assert(fc.property(dbTitle, (title) => {
      const old = title.replace(OLD.MILESTONE_PREFIX, '') || title || 'M009';
      assert.equal(milestoneTitle({ id: 'M009', title }), old, JSON.stringify(title));
    }), { numRuns: 2000 });
  });
});

// Where the old patterns read more than the line said; each is a deliberate difference.
describe('successor line patterns: where the rewrite differs on purpose', () => {
  it('a bullet with only blanks after it is no known issue (the old `(.+?)` took a blank as the text)', () => {
    assert.deepEqual(oldKnownIssues('- first\n-   \n- [ ]   '), [{ text: 'first', line: undefined }, { text: ' ', line: undefined }, { text: ' ', line: undefined }]);
    assert.deepEqual(knownIssuesFromText('- first\n-   \n- [ ]   '), [{ text: 'first', line: undefined }, { text: '[ ]', line: undefined }]);
  });

  it('a CRLF roadmap gives the slices of the same roadmap with LF line ends (the old `(.*)$` stopped at the CR)', () => {
    const lf = '# M001: Checkout\n\n## Slices\n\n- [x] **S01: Cart** `risk:low` `depends:[]`\n  > After this: a cart\n- [ ] **S02: Pay** `risk:high` `depends:[S01]`\n';
    const crlf = lf.replace(/\n/g, '\r\n');
    assert.equal(oldRoadmapSlices(crlf).length, 0);
    assert.deepEqual(parseRoadmapSlices(crlf), parseRoadmapSlices(lf));
    assert.deepEqual(parseRoadmapSlices(lf).map((s) => [s.id, s.title, s.roadmapDone, s.risk, s.depends, s.demo]), [
      ['S01', 'Cart', true, 'low', [], 'a cart'],
      ['S02', 'Pay', false, 'high', ['S01'], undefined],
    ]);
  });

  it('a context file whose first `#` line is blank: the old `\\s+` ran on into the next line', () => {
    const text = '#  \nIntro paragraph.\n# M001: Checkout flow\n';
    assert.equal(oldContextTitle(text), 'Intro paragraph.');
    assert.equal(contextTitle(text), 'Checkout flow');
  });
});
