// `.gsd/PREFERENCES.md`: YAML frontmatter. We read GSD's keys as they are and our `gsd_hooks` block:
//   gsd_hooks:
//     enabled:
//       - name: review-loop
//         priority: 10
//         options: { max_cycles: 5 }
//       - name: my-policy
//         source: my-policy
import { parseFrontmatter } from './frontmatter';
import type { Diagnostic } from '../model/types';

export interface HookPreference {
  name: string;
  source?: string;
  priority?: number;
  options: Record<string, unknown>;
}

export interface Preferences {
  data: Record<string, unknown>;
  /** null when PREFERENCES.md has no gsd_hooks block: the built-in hooks then run with defaults. */
  hooks: HookPreference[] | null;
  /** Hooks listed under gsd_hooks.disabled. */
  disabledHooks: string[];
  diagnostics: Diagnostic[];
}

function asRecord(v: unknown): Record<string, unknown> | null {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

/** The hook settings themselves (`enabled`, `disabled`): the value of `gsd_hooks`, or our settings file. */
export interface HookSettings {
  /** null when no `enabled` list is given: the built-in hooks then run with defaults. */
  hooks: HookPreference[] | null;
  disabledHooks: string[];
}

/** Reads `enabled` / `disabled` from a mapping; `where` names it in diagnostics (`gsd_hooks`, the settings file). */
export function parseHookSettings(block: Record<string, unknown>, where: string, file: string, diagnostics: Diagnostic[]): HookSettings {
  let hooks: HookPreference[] | null = null;
  const prefix = where ? `${where}.` : '';
  if (block.enabled !== undefined) {
    hooks = [];
    const list = Array.isArray(block.enabled) ? block.enabled : [];
    if (!Array.isArray(block.enabled)) {
      diagnostics.push({ file, line: 1, severity: 'error', message: `${prefix}enabled must be a list` });
    }
    for (const item of list) {
      if (typeof item === 'string' && item.trim()) {
        hooks.push({ name: item.trim(), options: {} });
        continue;
      }
      const rec = asRecord(item);
      const name = rec && typeof rec.name === 'string' ? rec.name.trim() : '';
      if (!rec || !name) {
        diagnostics.push({ file, line: 1, severity: 'error', message: `${prefix}enabled entry ${JSON.stringify(item)} has no name; skipped` });
        continue;
      }
      if (rec.options !== undefined && rec.options !== null && !asRecord(rec.options)) {
        diagnostics.push({ file, line: 1, severity: 'warning', message: `${prefix}enabled: options of hook ${name} must be a mapping (key: value); ignored` });
      }
      const hook: HookPreference = { name, options: asRecord(rec.options) ?? {} };
      if (typeof rec.source === 'string' && rec.source.trim()) hook.source = rec.source.trim();
      if (rec.priority !== undefined) {
        const p = Number(rec.priority);
        if (Number.isFinite(p)) hook.priority = p;
        else diagnostics.push({ file, line: 1, severity: 'warning', message: `priority of hook ${name} is not a number; default used` });
      }
      hooks.push(hook);
    }
  }
  const disabledHooks: string[] = [];
  if (block.disabled !== undefined && block.disabled !== null) {
    if (!Array.isArray(block.disabled)) diagnostics.push({ file, line: 1, severity: 'warning', message: `${prefix}disabled must be a list of hook names; ignored` });
    else {
      block.disabled.forEach((item, i) => {
        if (typeof item === 'string' && item.trim()) disabledHooks.push(item.trim());
        else diagnostics.push({ file, line: 1, severity: 'warning', message: `${prefix}disabled[${i}] is ${JSON.stringify(item)}, not a hook name; ignored` });
      });
    }
  }
  return { hooks, disabledHooks };
}

export function parsePreferences(text: string, file: string): Preferences {
  const fm = parseFrontmatter(text, file);
  const diagnostics = [...fm.diagnostics];
  const block = asRecord(fm.data.gsd_hooks);
  if (fm.data.gsd_hooks !== undefined && !block) {
    diagnostics.push({ file, line: 1, severity: 'error', message: 'gsd_hooks must be a mapping with an `enabled` list' });
  }
  const settings = block ? parseHookSettings(block, 'gsd_hooks', file, diagnostics) : { hooks: null, disabledHooks: [] };
  return { data: fm.data, hooks: settings.hooks, disabledHooks: settings.disabledHooks, diagnostics };
}
