// Writes GSD trees for tests: a map of relative path → content into a fresh temp folder.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { copyTracked } from '../../../scripts/vscode-host/tracked-copy.cjs';

// writeTree has its own module so fixture builders can use it without this module's sample copy.
export { writeTree, type Tree } from './write-tree';

export function copyFixture(name: string): string {
  const src = path.join(__dirname, '..', '..', 'fixtures', name);
  const dst = fs.mkdtempSync(path.join(os.tmpdir(), `gsd-${name}-`));
  fs.cpSync(src, dst, { recursive: true });
  return dst;
}

/** A copy of sample-project/ as git has it: a user's CLI runs on the repo's sample never leak into tests. */
export function copySample(): string {
  const dst = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-sample-'));
  copyTracked('sample-project', dst);
  return dst;
}

/** The sample for tests that only read it: one tracked copy per test run. */
export const SAMPLE_PROJECT = copySample();

/** Markdown builders for realistic files, so tests state only what differs. */
export function roadmap(id: string, title: string, slices: Array<{ id: string; title: string; done?: boolean; depends?: string[]; risk?: string }>): string {
  const lines = [`# ${id}: ${title}`, '', `**Vision:** ${title} works end to end.`, '', '## Slices', ''];
  for (const s of slices) {
    lines.push(`- [${s.done ? 'x' : ' '}] **${s.id}: ${s.title}** \`risk:${s.risk ?? 'medium'}\` \`depends:[${(s.depends ?? []).join(',')}]\``);
    lines.push(`  > After this: ${s.title} can be demonstrated.`);
  }
  return lines.join('\n') + '\n';
}

export function slicePlan(id: string, title: string, tasks: Array<{ id: string; title: string; done?: boolean; est?: string }>, frontmatter = ''): string {
  const lines = [frontmatter ? `---\n${frontmatter}---\n` : '', `# ${id}: ${title}`, '', `**Goal:** ${title}.`, '', '## Tasks', ''];
  for (const t of tasks) {
    lines.push(`- [${t.done ? 'x' : ' '}] **${t.id}: ${t.title}** \`est:${t.est ?? '30m'}\``);
    lines.push(`  - Files: \`src/${t.id.toLowerCase()}.ts\``);
    lines.push(`  - Verify: \`npm test -- --grep ${t.id}\``);
  }
  return lines.filter((l, i) => i > 0 || l).join('\n') + '\n';
}

export function taskSummary(
  id: string,
  parent: string,
  milestone: string,
  options: { completedAt?: string; blocker?: boolean; pendingActions?: string[]; knownIssuesProse?: string } = {},
): string {
  const known = options.pendingActions
    ? `${options.knownIssuesProse ?? 'Some follow-up remains.'}\n\nPending actions:\n${options.pendingActions.map((a) => `- ${a}`).join('\n')}\n`
    : 'None.\n';
  return `---
id: ${id}
parent: ${parent}
milestone: ${milestone}
key_files:
  - src/${id.toLowerCase()}.ts
key_decisions:
  - none
duration: 25m
verification_result: passed
completed_at: ${options.completedAt ?? '2026-10-01T10:00:00Z'}
blocker_discovered: ${options.blocker ? 'true' : 'false'}
---

# ${id}: Task ${id}

**Did what ${id} planned.**

## What Happened

Implemented.

## Verification

\`npm test\` passes.

## Known Issues

${known}
## Files Created/Modified

- \`src/${id.toLowerCase()}.ts\` — implementation
`;
}

export function codeReview(task: string, cycle: number, verdict: string, issues: Array<{ text: string; resolved?: boolean; severity?: string; location?: string }>): string {
  const lines = ['---', `task: ${task}`, `cycle: ${cycle}`, `verdict: ${verdict}`, '---', `# Code review: ${task} (cycle ${cycle})`, '', '## Issues', ''];
  for (const i of issues) {
    lines.push(`- [${i.resolved ? 'x' : ' '}] **${i.severity ?? 'major'}** ${i.location ? `\`${i.location}\` ` : ''}${i.text}`);
  }
  lines.push('', '## Notes', '', 'Reviewed against the task plan.');
  return lines.join('\n') + '\n';
}
