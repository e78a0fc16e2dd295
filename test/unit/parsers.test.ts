import * as assert from 'node:assert/strict';
import { parseCodeReview, reviewPassed } from '../../src/core/parse/code-review';
import { parseContinueFile } from '../../src/core/parse/continue-file';
import { parseFrontmatter } from '../../src/core/parse/frontmatter';
import { parsePreferences } from '../../src/core/parse/preferences';
import { parseReplan } from '../../src/core/parse/replan';
import { parseRoadmap } from '../../src/core/parse/roadmap';
import { parseSlicePlan } from '../../src/core/parse/slice-plan';
import { parseTaskSummary } from '../../src/core/parse/task-summary';
import { codeReview, taskSummary } from './helpers/gsd-tree';

const crlf = (s: string) => s.replace(/\n/g, '\r\n');

describe('frontmatter', () => {
  it('keeps GSD values as written: ISO times stay strings, empty values stay empty', () => {
    const fm = parseFrontmatter('---\ncompleted_at: 2026-05-10T14:02:11Z\nduration:\nid: T01\n---\n# Body\n', 'f.md');
    assert.equal(fm.data.completed_at, '2026-05-10T14:02:11Z');
    assert.equal(fm.data.duration, null);
    assert.equal(fm.body, '# Body\n');
    assert.equal(fm.bodyStartLine, 6);
    assert.deepEqual(fm.diagnostics, []);
  });

  it('reads CRLF files and counts body lines the same way', () => {
    const fm = parseFrontmatter(crlf('---\nid: T01\nblocker_discovered: true\n---\n\n# T01\n'), 'f.md');
    assert.equal(fm.data.id, 'T01');
    assert.equal(fm.data.blocker_discovered, true);
    assert.equal(fm.bodyStartLine, 5);
  });

  it('reads a value YAML folds over an indented next line, and an indented mapping, as YAML does', () => {
    const keys = ['id', 'completed_at'];
    const folded = parseFrontmatter('---\nid: T01\ncompleted_at: 2026-05-10\n  T14:02:11Z\n---\n# B\n', 'f.md', { onlyKeys: keys });
    assert.equal(folded.data.completed_at, '2026-05-10 T14:02:11Z');
    const indented = parseFrontmatter('---\n  id: T01\n  completed_at: x\n---\n# B\n', 'f.md', { onlyKeys: keys });
    assert.deepEqual([indented.data.id, indented.data.completed_at], ['T01', 'x']);
  });

  it('turns broken YAML into a diagnostic with its line and keeps the body', () => {
    const fm = parseFrontmatter('---\nid: T01\nkey_files: [a, b\nother: 1\n---\n# Still here\n', 'broken.md');
    assert.deepEqual(fm.data, {});
    assert.equal(fm.diagnostics.length, 1);
    assert.match(fm.diagnostics[0].message, /not valid YAML/);
    assert.ok(fm.diagnostics[0].line! >= 2);
    assert.equal(fm.body, '# Still here\n');
  });

  it('reports a frontmatter block that is never closed (half-written file)', () => {
    const fm = parseFrontmatter('---\nid: T01\nparent: S0', 'half.md');
    assert.equal(fm.present, true);
    assert.match(fm.diagnostics[0].message, /never closed/);
  });

  it('treats a file without frontmatter as all body, and an empty file as empty', () => {
    assert.deepEqual(parseFrontmatter('# Title\n', 'a.md').data, {});
    const empty = parseFrontmatter('', 'e.md');
    assert.equal(empty.body, '');
    assert.equal(empty.present, false);
  });

  it('reports frontmatter that is a list, not a mapping', () => {
    const fm = parseFrontmatter('---\n- a\n- b\n---\nbody\n', 'l.md');
    assert.match(fm.diagnostics[0].message, /not a YAML mapping/);
  });
});

describe('roadmap', () => {
  const body = `# M001: Flight sim

**Vision:** Fly.

## Slices

- [x] **S01: Physics core** \`risk:high\` \`depends:[]\`
  > After this: a plane falls realistically.
- [ ] **S02: Controls** \`risk:medium\` \`depends:[S01]\`
  > After this: the stick moves the plane.
- [X] **S03: HUD** \`risk:low\` \`depends:[S01, S02]\`
- [ ] S04 Cockpit with no bold
`;

  it('reads id, title, checkbox, risk, depends and the After this line', () => {
    const r = parseRoadmap(body, 1, 'r.md');
    assert.equal(r.title, 'Flight sim');
    assert.equal(r.vision, 'Fly.');
    assert.deepEqual(r.slices.map((s) => [s.id, s.title, s.done, s.risk, s.depends]), [
      ['S01', 'Physics core', true, 'high', []],
      ['S02', 'Controls', false, 'medium', ['S01']],
      ['S03', 'HUD', true, 'low', ['S01', 'S02']],
    ]);
    assert.equal(r.slices[0].demo, 'a plane falls realistically.');
    assert.equal(r.slices[2].demo, undefined);
    assert.equal(r.slices[1].line, 9);
  });

  it('says which slice-like line it did not understand', () => {
    const r = parseRoadmap(body, 1, 'r.md');
    assert.equal(r.diagnostics.length, 1);
    assert.equal(r.diagnostics[0].line, 12);
  });

  it('reads CRLF roadmaps like LF ones', () => {
    assert.deepEqual(parseRoadmap(crlf(body), 1, 'r.md').slices, parseRoadmap(body, 1, 'r.md').slices);
  });

  it('keeps the first of two lines for the same slice', () => {
    const r = parseRoadmap('- [ ] **S01: A** `risk:low`\n- [x] **S01: B** `risk:low`\n', 1, 'r.md');
    assert.equal(r.slices.length, 1);
    assert.equal(r.slices[0].title, 'A');
    assert.match(r.diagnostics[0].message, /twice/);
  });
});

describe('slice plan', () => {
  const body = `# S01: Parser

## Tasks

- [x] **T01: Tokenizer** \`est:30m\`
  - Why: everything needs tokens
  - Files: \`src/lexer.ts\`, \`test/lexer.test.ts\`
  - Verify: \`npm test -- --grep lexer\`
- [ ] **T02: Grammar** \`est:1h\`
  - Files: src/grammar.ts, src/ast.ts

### T03: Error recovery \`est:45m\`

- Files: \`src/recover.ts\`
- Verify: \`npm test\`
`;

  it('reads checkbox tasks with est, Files and Verify', () => {
    const p = parseSlicePlan(body, 1, 'p.md');
    assert.equal(p.title, 'Parser');
    assert.deepEqual(p.tasks[0], {
      id: 'T01', title: 'Tokenizer', done: true, estimate: '30m',
      files: ['src/lexer.ts', 'test/lexer.test.ts'], verify: '`npm test -- --grep lexer`', line: 5, style: 'checkbox',
    });
    assert.deepEqual(p.tasks[1].files, ['src/grammar.ts', 'src/ast.ts']);
  });

  it('reads heading-style tasks as not done', () => {
    const t3 = parseSlicePlan(body, 1, 'p.md').tasks[2];
    assert.equal(t3.id, 'T03');
    assert.equal(t3.title, 'Error recovery');
    assert.equal(t3.done, false);
    assert.equal(t3.style, 'heading');
    assert.deepEqual(t3.files, ['src/recover.ts']);
  });

  it('ignores task-like lines inside fenced code', () => {
    const p = parseSlicePlan('## Tasks\n\n```\n- [ ] **T09: Example** `est:1m`\n```\n', 1, 'p.md');
    assert.equal(p.tasks.length, 0);
  });
});

describe('task summary and Known Issues', () => {
  it('reads the frontmatter keys GSD writes', () => {
    const s = parseTaskSummary(taskSummary('T02', 'S01', 'M001', { completedAt: '2026-05-10T14:02:11Z', blocker: true }), 's.md');
    assert.equal(s.id, 'T02');
    assert.equal(s.parent, 'S01');
    assert.equal(s.milestone, 'M001');
    assert.equal(s.completedAt, '2026-05-10T14:02:11Z');
    assert.equal(s.blockerDiscovered, true);
    assert.equal(s.verificationResult, 'passed');
    assert.equal(s.duration, '25m');
    assert.equal(s.title, 'Task T02');
    assert.equal(s.oneLiner, 'Did what T02 planned.');
  });

  it('lists pending actions with the file line of each bullet', () => {
    const text = taskSummary('T01', 'S01', 'M001', { pendingActions: ['Add retry to the fetcher', 'Document the cache flag'] });
    const s = parseTaskSummary(text, 's.md');
    assert.deepEqual(s.pendingActions.map((a) => a.text), ['Add retry to the fetcher', 'Document the cache flag']);
    const lines = text.split('\n');
    for (const a of s.pendingActions) assert.equal(lines[a.line - 1], `- ${a.text}`);
  });

  it('accepts * bullets, blank lines inside the list, and stops at the first non-bullet line', () => {
    const text = `# T01: x\n\n## Known Issues\n\nThe cache is cold.\n\nPending actions:\n* first\n\n* second\nNot a bullet.\n- not an action\n\n## Files Created/Modified\n`;
    assert.deepEqual(parseTaskSummary(text, 's.md').pendingActions.map((a) => [a.text, a.line]), [['first', 8], ['second', 10]]);
  });

  it('skips ticked bullets and "None."', () => {
    const text = `## Known Issues\n\nPending actions:\n- [x] already done\n- [ ] still open\n- None.\n`;
    assert.deepEqual(parseTaskSummary(text, 's.md').pendingActions.map((a) => a.text), ['still open']);
  });

  it('gives the same actions and lines for a CRLF file', () => {
    const text = taskSummary('T01', 'S01', 'M001', { pendingActions: ['one', 'two'] });
    assert.deepEqual(parseTaskSummary(crlf(text), 's.md').pendingActions, parseTaskSummary(text, 's.md').pendingActions);
  });

  it('finds no pending actions outside ## Known Issues', () => {
    const text = `## Deviations\n\nPending actions:\n- not here\n\n## Known Issues\n\nNone.\n`;
    assert.deepEqual(parseTaskSummary(text, 's.md').pendingActions, []);
  });

  // A summary that documents the format (a task that wrote GSD docs or a template) shows a
  // `## Known Issues` example in a code fence: CommonMark makes it code, not a heading.
  it('reads no Known Issues from an example in a code fence, and skips fenced lines in the real section', () => {
    const example = ['```markdown', '## Known Issues', '', 'Pending actions:', '- Example action from the docs', '```'];
    const onlyExample = ['# T03: Document the summary format', '', 'Added this example to the guide:', '', ...example, '', '## Deviations', '', 'None.', ''].join('\n');
    const s = parseTaskSummary(onlyExample, 's.md');
    assert.equal(s.knownIssues, '');
    assert.deepEqual(s.pendingActions, []);
    const both = ['# T03: x', '', ...example, '', '## Known Issues', '', '~~~', '## Not a heading', 'Pending actions:', '- fenced, not an action', '~~~', '', 'Pending actions:', '- the real one', ''].join('\n');
    const t = parseTaskSummary(both, 's.md');
    assert.deepEqual(t.pendingActions, [{ text: 'the real one', line: 19 }]);
    assert.match(t.knownIssues, /## Not a heading/);
  });
});

describe('code review', () => {
  it('reads cycle, verdict, open and resolved issues with severity and location', () => {
    const r = parseCodeReview(codeReview('T01', 2, 'changes-requested', [
      { text: 'ParseError is swallowed before the handler.', location: 'src/cli.ts:42' },
      { text: 'typo in help text', severity: 'minor', resolved: true },
    ]), 'r.md');
    assert.equal(r.task, 'T01');
    assert.equal(r.cycle, 2);
    assert.equal(r.verdict, 'changes-requested');
    assert.deepEqual(r.openIssues.map((i) => [i.severity, i.location, i.text]), [['major', 'src/cli.ts:42', 'ParseError is swallowed before the handler.']]);
    assert.deepEqual(r.resolvedIssues.map((i) => i.text), ['typo in help text']);
    assert.equal(r.wellFormed, true);
    assert.equal(reviewPassed(r), false);
  });

  it('treats open issues as not passed even when the verdict says approved', () => {
    const r = parseCodeReview(codeReview('T01', 1, 'approved', [{ text: 'still open' }]), 'r.md');
    assert.equal(reviewPassed(r), false);
    assert.equal(reviewPassed(parseCodeReview(codeReview('T01', 1, 'approved', [{ text: 'fixed', resolved: true }]), 'r.md')), true);
  });

  it('flags a review without a cycle, with a bad cycle, or with an unknown verdict', () => {
    assert.equal(parseCodeReview('# Code review\n\n## Issues\n', 'r.md').wellFormed, false);
    const bad = parseCodeReview('---\ntask: T01\ncycle: two\nverdict: maybe\n---\n## Issues\n', 'r.md');
    assert.equal(bad.wellFormed, false);
    assert.equal(bad.diagnostics.length, 2);
    assert.equal(parseCodeReview('', 'r.md').wellFormed, false);
  });
});

describe('replan, continue and preferences', () => {
  it('reads which task a replan answered', () => {
    const r = parseReplan('# S01 replan\n\n**Blocker Task:** T02\n**Blocker:** the API is gone\n', 'p.md');
    assert.deepEqual(r.blockerTasks, ['T02']);
    assert.deepEqual(parseReplan('# replan\n', 'p.md').blockerTasks, []);
  });

  it('reads a CONTINUE file in GSD shape', () => {
    const c = parseContinueFile(`---
milestone: M001
slice: S01
task: T02
status: compacted
saved_at: 2026-05-10T14:02:11Z
---

## Completed Work

T01 done.

## Remaining Work

T02 half-way.

## Next Action

Finish the parser.
`, 'c.md');
    assert.equal(c.task, 'T02');
    assert.equal(c.status, 'compacted');
    assert.equal(c.savedAt, '2026-05-10T14:02:11Z');
    assert.equal(c.sections['Next Action'], 'Finish the parser.');
  });

  it('reads gsd_hooks from PREFERENCES.md', () => {
    const p = parsePreferences(`---
gsd_hooks:
  enabled:
    - name: review-loop
      priority: 10
      options: { max_cycles: 3 }
    - pending-actions
    - name: my-policy
      source: my-policy
      priority: fifty
    - priority: 1
---
`, 'PREFERENCES.md');
    assert.deepEqual(p.hooks, [
      { name: 'review-loop', priority: 10, options: { max_cycles: 3 } },
      { name: 'pending-actions', options: {} },
      { name: 'my-policy', source: 'my-policy', options: {} },
    ]);
    assert.equal(p.diagnostics.length, 2);
    assert.equal(parsePreferences('---\nversion: 1\n---\n', 'p.md').hooks, null);
  });
});
