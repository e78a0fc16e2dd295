// `S01-CONTINUE.md`: what GSD (and our PreCompact hook) saves before context compaction.
import { fmString, parseFrontmatter } from './frontmatter';
import { findSection, sections, splitLines } from './markdown-sections';
import type { Diagnostic } from '../model/types';

export const CONTINUE_SECTIONS = ['Completed Work', 'Remaining Work', 'Decisions Made', 'Context', 'Next Action'] as const;

export interface ContinueFile {
  milestone?: string;
  slice?: string;
  task?: string;
  status?: string;
  savedAt?: string;
  sections: Partial<Record<(typeof CONTINUE_SECTIONS)[number], string>>;
  diagnostics: Diagnostic[];
}

export function parseContinueFile(text: string, file: string): ContinueFile {
  // Read by the derive (the active slice's, on every agent event): the hand-scanned path. Written
  // with gray-matter (review-loop-provider.ts).
  const fm = parseFrontmatter(text, file);
  const all = sections(splitLines(fm.body), fm.bodyStartLine);
  const out: ContinueFile = { sections: {}, diagnostics: [...fm.diagnostics] };
  for (const name of CONTINUE_SECTIONS) {
    const s = findSection(all, name);
    if (s) out.sections[name] = s.lines.join('\n').trim();
  }
  const keys = [['milestone', 'milestone'], ['slice', 'slice'], ['task', 'task'], ['status', 'status'], ['savedAt', 'saved_at']] as const;
  for (const [prop, key] of keys) {
    const v = fmString(fm.data, key);
    if (v !== undefined) out[prop] = v;
  }
  return out;
}
