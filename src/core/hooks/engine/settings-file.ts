// Our hook settings in a file of ours, `.gsd/gsd-review-loop.yaml`: the same `enabled` / `disabled`
// lists as `gsd_hooks` in PREFERENCES.md, read first.
//
// Why: GSD-2 warns about `gsd_hooks` as an unknown preference and drops it when the user saves
// preferences through GSD (its wizard writes only the keys it knows), and a YAML error anywhere in
// PREFERENCES.md makes GSD drop all its preferences. A file GSD never writes survives both; it sits
// beside PREFERENCES.md (not in our runtime folder, which git ignores) so a team shares it the same
// way. `gsd_hooks` keeps working: without our file it is read as before, and the first commit of
// ours copies it into our file (hook-state.ts), so a later save by GSD loses nothing.
import * as path from 'node:path';
import type { Diagnostic } from '../../model/types';
import { parseYaml } from '../../parse/frontmatter';
import { parseHookSettings, type HookSettings } from '../../parse/preferences';

export const SETTINGS_FILE = 'gsd-review-loop.yaml';

export function settingsFile(gsdDir: string): string {
  return path.join(gsdDir, SETTINGS_FILE);
}

export interface ParsedSettings extends HookSettings {
  /** The file could not be read as settings (broken YAML, not a mapping): it is not used. */
  broken: boolean;
  diagnostics: Diagnostic[];
}

export function parseSettingsFile(text: string, file: string): ParsedSettings {
  // parseYaml reports lines from the offset it is given: the file's first line is line 1.
  const { data, diagnostics } = parseYaml(text, file, 1);
  const out: Diagnostic[] = diagnostics.map((d) => ({ ...d, message: d.message.replace(/^frontmatter/, 'settings file') }));
  if (out.length > 0) return { hooks: null, disabledHooks: [], broken: true, diagnostics: out };
  const settings = parseHookSettings(data, '', file, out);
  return { ...settings, broken: false, diagnostics: out };
}

const HEADER = [
  '# GSD Review Loop: which hooks run, in which order, with which options.',
  '# Read before `gsd_hooks` in PREFERENCES.md, which GSD drops when it saves its preferences.',
  '# Same shape as gsd_hooks: `enabled` (name, priority, options, source) and `disabled`.',
  '',
].join('\n');

/** Our settings file with the value of `gsd_hooks` (as read from PREFERENCES.md). */
export function settingsText(gsdHooks: Record<string, unknown>): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const yaml = require('yaml') as typeof import('yaml');
  return HEADER + yaml.stringify(gsdHooks, { lineWidth: 0, indent: 2 });
}
