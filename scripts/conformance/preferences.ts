// Our two designed differences from GSD (the review loop and the pending-actions replan) are hooks,
// switched off for the comparison through `gsd_hooks.disabled` in `.gsd/PREFERENCES.md`, merged into
// whatever preferences the tree already has.
import { isMap, isSeq, parseDocument, type Document } from 'yaml';

export const DESIGNED_DIFFERENCES = ['review-loop', 'pending-actions'] as const;

const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n?---[ \t]*(?:\r?\n|$)/;

/**
 * PREFERENCES.md text with both hooks listed under `gsd_hooks.disabled`, every other key and the body
 * kept. Throws when the existing frontmatter cannot be merged into (invalid YAML, gsd_hooks not a map).
 */
export function preferencesWithHooksDisabled(existing: string | null): string {
  const m = existing === null ? null : FRONTMATTER.exec(existing);
  const body = existing === null ? '' : m ? existing.slice(m[0].length) : existing;
  const doc: Document = parseDocument(m ? m[1] : '');
  if (doc.errors.length > 0) throw new Error(`PREFERENCES.md frontmatter is not valid YAML: ${doc.errors[0].message}`);
  if (doc.contents === null) doc.contents = doc.createNode({});
  if (!isMap(doc.contents)) throw new Error('PREFERENCES.md frontmatter is not a mapping');
  const hooks = doc.get('gsd_hooks');
  if (hooks !== undefined && hooks !== null && !isMap(hooks)) throw new Error('gsd_hooks in PREFERENCES.md is not a mapping');
  const disabled = doc.getIn(['gsd_hooks', 'disabled']);
  const names: string[] = isSeq(disabled) ? disabled.toJSON().map(String) : [];
  for (const n of DESIGNED_DIFFERENCES) if (!names.includes(n)) names.push(n);
  doc.setIn(['gsd_hooks', 'disabled'], names);
  return `---\n${doc.toString()}---\n${body}`;
}
