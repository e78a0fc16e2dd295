// Pending actions of a GSD-2 database project: the database is the truth, so they come from
// `tasks.known_issues` (what the agent passed as gsd_task_complete's knownIssues), read with the same
// rule as a summary's `## Known Issues` (a `Pending actions:` list). GSD renders that text under the
// summary's `## Known Issues`; each action points at its bullet there when the rendered file has it
// (the panel and CodeLens open that file), else at the heading, else at the file's first line.
import { readBoundedText } from '../files/bounded-read';
import { openConfined } from '../files/confine';
import { extractPendingActions } from '../parse/known-issues';
import { sectionNamed, splitLines, type Section } from '../parse/markdown-sections';
import type { PendingAction } from '../model/types';

export interface TaskRef {
  milestoneId: string;
  sliceId: string;
  taskId: string;
}

/**
 * The rendered summary's `## Known Issues` section (undefined when it has none), or null when there
 * is no summary to point at: none rendered, or one that leads out of `.gsd` or cannot be read.
 */
function renderedSection(summaryFile: string | null): Section | undefined | null {
  if (!summaryFile) return null;
  let text: string | null;
  try {
    text = readBoundedText(summaryFile, undefined, openConfined);
  } catch {
    return null;
  }
  return text === null ? null : sectionNamed(text, 1, 'Known Issues');
}

/**
 * Where the actions of one task point: the rendered summary (null when none), and else a fallback.
 * Asked only for a task whose database text has pending actions: finding either path lists its
 * folder or resolves a path, and GSD writes "None." for every finished task.
 */
export interface SummaryPlaces {
  summaryFile(): string | null;
  fallbackFile(): string;
}

export function knownIssueActions(knownIssues: string, task: TaskRef, places: SummaryPlaces): PendingAction[] {
  if (!knownIssues.trim()) return [];
  const fromDb = extractPendingActions({ heading: 'Known Issues', line: 0, lines: splitLines(knownIssues), firstLine: 1 });
  if (fromDb.length === 0) return [];
  const summaryFile = places.summaryFile();
  const rendered = renderedSection(summaryFile);
  const renderedActions = rendered ? extractPendingActions(rendered) : [];
  const file = rendered === null ? places.fallbackFile() : summaryFile!;
  return fromDb.map((a) => {
    const at = renderedActions.find((r) => r.text === a.text);
    return { text: a.text, source: 'summary', file, line: at?.line ?? rendered?.line ?? 1, ...task };
  });
}
