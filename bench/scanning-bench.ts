// Time per KB to read one file of each kind the tool reads, holding one long line shaped to make a
// backtracking pattern work hard (runs of blanks around a word and before the line's last
// character, where the quadratic `\s*(.*?)\s*$` patterns spent their time). A 2 KB and a 200 KB line are measured in the same
// run; scanning is linear when the time per KB stays about the same (ratio 200 KB / 2 KB under 2).
import { parseCodeReview } from '../src/core/parse/code-review';
import { parseContinueFile } from '../src/core/parse/continue-file';
import { parseFrontmatter } from '../src/core/parse/frontmatter';
import { normalizePayload } from '../src/core/agent-hooks/hook-payload';
import { parsePreferences } from '../src/core/parse/preferences';
import { parseRoadmap } from '../src/core/parse/roadmap';
import { parseSlicePlan } from '../src/core/parse/slice-plan';
import { parseTaskSummary } from '../src/core/parse/task-summary';
import { fmt, medianMsInterleaved } from './measure';

interface FileKind {
  name: string;
  /** The file's text with a hostile line of `size` characters. */
  text(size: number): string;
  read(text: string): unknown;
}

/** `prefix`, blanks, a word, blanks, and one last character: `size` characters in all. */
function hostile(prefix: string, size: number): string {
  const half = Math.floor((size - prefix.length - 2) / 2);
  const blanks = (n: number) => ' \t'.repeat(Math.ceil(n / 2)).slice(0, n);
  return prefix + blanks(half) + 'a' + blanks(size - prefix.length - 2 - half) + 'x';
}

const KINDS: FileKind[] = [
  {
    name: 'PREFERENCES.md',
    text: (n) => `---\nversion: 1\n${hostile('note: ', n)}\ngsd_hooks:\n  enabled:\n    - name: review-loop\n      options: { max_cycles: 5 }\n---\n`,
    read: (t) => parsePreferences(t, 'PREFERENCES.md'),
  },
  {
    name: 'M001-ROADMAP.md',
    text: (n) => `# M001: Flight sim\n\n**Vision:** fly\n\n## Slices\n\n- [x] **S01: Setup** \`risk:low\` \`depends:[]\`\n  > After this: it builds\n${hostile('- [ ] **S02: ', n)}\n${hostile('# ', n)}\n`,
    read: (t) => { const fm = parseFrontmatter(t, 'R'); return parseRoadmap(fm.body, fm.bodyStartLine, 'R'); },
  },
  {
    name: 'S01-PLAN.md',
    text: (n) => `# S01: Setup\n\n**Goal:** build\n\n## Tasks\n\n- [ ] **T01: Scaffold** \`est:30m\`\n${hostile('  - Files: ', n)}\n${hostile('- [ ] **T02: ', n)}\n${hostile('### T03: ', n)}\n`,
    read: (t) => { const fm = parseFrontmatter(t, 'P'); return parseSlicePlan(fm.body, fm.bodyStartLine, 'P'); },
  },
  {
    name: 'T01-PLAN.md',
    text: (n) => `---\nestimated_steps: 3\n${hostile('note: ', n)}\nextensions:\n  review-loop:\n    cycles: 1\n---\n# T01: Scaffold\n`,
    read: (t) => parseFrontmatter(t, 'T', { onlyKeys: ['extensions'] }),
  },
  {
    name: 'T01-SUMMARY.md',
    text: (n) => `---\nid: T01\n${hostile('duration: ', n)}\n---\n${hostile('# ', n)}\n**Did it**\n\n## Known Issues\n\nPending actions:\n${hostile('- ', n)}\n`,
    read: (t) => parseTaskSummary(t, 'S'),
  },
  {
    name: 'T01-CODE-REVIEW.md',
    text: (n) => `---\ntask: T01\ncycle: 1\nverdict: changes-requested\n---\n# Code review: T01 (cycle 1)\n${hostile('## ', n)}\n## Issues\n${hostile('- [ ] ', n)}\n`,
    read: (t) => parseCodeReview(t, 'C'),
  },
  {
    name: 'S01-CONTINUE.md',
    text: (n) => `---\nmilestone: M001\nslice: S01\nstatus: compacted\n---\n${hostile('## ', n)}\n## Next Action\n${hostile('- ', n)}\n`,
    read: (t) => parseContinueFile(t, 'K'),
  },
  {
    name: 'hook payload JSON',
    text: (n) => JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', cwd: '/p', tool_name: 'Write', tool_input: { file_path: hostile('src/', n) } }),
    read: (t) => normalizePayload(t),
  },
];

export function scanningBench(): void {
  const small = 2 * 1024;
  const large = 200 * 1024;
  console.log('\n## Scanning long lines (time per KB of the file; linear when the ratio stays under 2)');
  console.log('file kind              2 KB lines    200 KB lines  ratio per KB');
  for (const kind of KINDS) {
    const a = kind.text(small);
    const b = kind.text(large);
    const [ta, tb] = medianMsInterleaved(9, [() => kind.read(a), () => kind.read(b)], 2, 200);
    const perKbA = ta / (a.length / 1024);
    const perKbB = tb / (b.length / 1024);
    console.log(`${kind.name.padEnd(22)} ${fmt(perKbA * 1000).padStart(8)} µs/KB ${fmt(perKbB * 1000).padStart(8)} µs/KB   ${(perKbB / perKbA).toFixed(2)}×`);
  }
}
