// Which hooks run: `gsd_hooks.enabled` in `.gsd/PREFERENCES.md`, or every built-in hook when the
// file names none. Built-in hooks are named without `source`; user hooks name their folder.
import * as path from 'node:path';
import { parsePreferences, type HookPreference } from '../../parse/preferences';
import type { ProjectFiles } from '../../state/project-files';
import type { Diagnostic } from '../../model/types';

export interface EnabledHook {
  name: string;
  kind: 'builtin' | 'user';
  source?: string;
  priority?: number;
  options: Record<string, unknown>;
}

export interface HookConfig {
  hooks: EnabledHook[];
  diagnostics: Diagnostic[];
}

export function preferencesFile(files: ProjectFiles, gsdDir: string): string | null {
  const entry = files.dir(gsdDir)?.entries.find((e) => e.isFile && e.name.toUpperCase() === 'PREFERENCES.MD');
  return entry ? path.join(gsdDir, entry.name) : null;
}

export function readHookConfig(files: ProjectFiles, gsdDir: string, builtinNames: readonly string[]): HookConfig {
  const file = preferencesFile(files, gsdDir);
  const prefs = file ? files.parse(file, parsePreferences) : null;
  const diagnostics = [...(prefs?.diagnostics ?? [])];
  const listed: HookPreference[] | null = prefs?.value?.hooks ?? null;
  const disabled = new Set(prefs?.value?.disabledHooks ?? []);
  const entries: HookPreference[] = listed ?? builtinNames.map((name) => ({ name, options: {} }));
  const hooks: EnabledHook[] = [];
  for (const p of entries) {
    if (disabled.has(p.name)) continue;
    if (hooks.some((h) => h.name === p.name)) {
      diagnostics.push({ file: file ?? gsdDir, severity: 'warning', message: `hook ${p.name} is enabled twice; the first entry counts` });
      continue;
    }
    const kind = p.source ? 'user' : 'builtin';
    if (kind === 'builtin' && !builtinNames.includes(p.name)) {
      diagnostics.push({ file: file ?? gsdDir, severity: 'warning', message: `hook ${p.name} is not built in and names no source folder; skipped` });
      continue;
    }
    const hook: EnabledHook = { name: p.name, kind, options: p.options };
    if (p.source) hook.source = p.source;
    if (p.priority !== undefined) hook.priority = p.priority;
    hooks.push(hook);
  }
  return { hooks, diagnostics };
}
