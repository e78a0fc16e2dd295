// Which hooks run: `enabled` in our settings file `.gsd/gsd-review-loop.yaml` (settings-file.ts),
// else `gsd_hooks.enabled` in `.gsd/PREFERENCES.md`, else every built-in hook. Built-in hooks are
// named without `source`; user hooks name their folder.
import * as path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parsePreferences, type HookPreference } from '../../parse/preferences';
import { parseSettingsFile, SETTINGS_FILE } from './settings-file';
import { preferencesFile, type ProjectFiles } from '../../state/project-files';
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

/** Our settings file when it exists (a cached folder listing, no extra read when it does not). */
export function ourSettingsFile(files: ProjectFiles, gsdDir: string): string | null {
  return files.dir(gsdDir)?.entries.some((e) => e.isFile && e.name === SETTINGS_FILE) ? path.join(gsdDir, SETTINGS_FILE) : null;
}

export function readHookConfig(files: ProjectFiles, gsdDir: string, builtinNames: readonly string[]): HookConfig {
  const prefsFile = preferencesFile(files, gsdDir);
  const prefs = prefsFile ? files.parse(prefsFile, parsePreferences) : null;
  const diagnostics = [...(prefs?.diagnostics ?? [])];
  const ours = ourSettingsFile(files, gsdDir);
  const settings = ours ? files.parse(ours, parseSettingsFile) : null;
  if (settings) diagnostics.push(...settings.diagnostics);
  let listed: HookPreference[] | null = prefs?.value?.hooks ?? null;
  let disabledList = prefs?.value?.disabledHooks ?? [];
  let file = prefsFile;
  if (settings?.value && !settings.value.broken) {
    const gsdHooks = prefs?.value?.data.gsd_hooks;
    if (gsdHooks !== undefined && (!isDeepStrictEqual(listed, settings.value.hooks) || !isDeepStrictEqual(disabledList, settings.value.disabledHooks))) {
      diagnostics.push({ file: prefsFile!, severity: 'warning', message: `gsd_hooks here differs from ${SETTINGS_FILE}, which is the one used; edit that file (GSD drops gsd_hooks when it saves its preferences)` });
    }
    listed = settings.value.hooks;
    disabledList = settings.value.disabledHooks;
    file = ours;
  } else if (settings?.value?.broken) {
    diagnostics.push({ file: ours!, severity: 'error', message: `not used until it is fixed; ${prefs?.value?.hooks || prefs?.value?.disabledHooks.length ? 'gsd_hooks in PREFERENCES.md' : 'the built-in hooks with their defaults'} in the meantime` });
  }
  const disabled = new Set(disabledList);
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
