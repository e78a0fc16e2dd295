// Our gate as GSD will run it: the `post_unit_hooks` entry named gsd-review-loop in the PREFERENCES
// GSD reads (gate-install.ts preferencesCandidates: the project's, else the user's; a project entry
// replaces a user entry of the same name), with GSD's own reading of its values
// (preferences-validation.ts: max_cycles rounded and clamped to 1-10, default 1; a blocking hook
// without an artifact is dropped; `enabled: false` turns it off).
import { readBoundedText } from '../files/bounded-read';
import { openConfined } from '../files/confine';
import { jsYamlLib } from '../parse/js-yaml-lib';
import { GATE_HOOK_NAME, GATE_TRIGGER } from './gate-hook';
import { preferencesCandidates, type PreferencesPlaces } from './preferences-files';

export interface GateConfig {
  name: string;
  artifact: string;
  maxCycles: number;
  /** The PREFERENCES.md it was read from. */
  file: string;
  scope: 'project' | 'user';
}

export interface GateConfigRead {
  config: GateConfig | null;
  /** Why there is none, in one line, when the hook is there but GSD would not run it. */
  problem?: string;
  /** The files looked at, in GSD's order. */
  looked: string[];
}

/**
 * The frontmatter data GSD reads from PREFERENCES.md, or null when GSD would ignore the file: its
 * fence rule (from `---\n` or `---\r\n` to the first `\n---`, `\r` removed: preferences.ts), and a
 * YAML 1.2 core read where a duplicate key is an error, as the `yaml` package GSD uses has it.
 * js-yaml's CORE schema reads plain settings as `yaml` does (no merge keys, no timestamps); it is
 * already loaded where `yaml` is not, and the gate runs at every review while GSD waits (install,
 * which writes, checks its result with `yaml` itself: preferences-entry.ts).
 */
export function preferencesAsGsdReads(text: string): Record<string, unknown> | null {
  const open = text.startsWith('---\r\n') ? 5 : text.startsWith('---\n') ? 4 : -1;
  if (open === -1) return {};
  const end = text.indexOf('\n---', open);
  if (end === -1) return null;
  try {
    const jsYaml = jsYamlLib();
    const value = jsYaml.load(text.slice(open, end).replace(/\r/g, ''), { schema: jsYaml.CORE_SCHEMA });
    if (value === null || value === undefined) return {};
    return typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function hookIn(file: string, confined: boolean): Record<string, unknown> | null | undefined {
  let text: string | null;
  try {
    text = readBoundedText(file, 2 * 1024 * 1024, confined ? openConfined : undefined);
  } catch {
    return undefined;
  }
  if (text === null) return undefined;
  // Read as GSD reads it (a file GSD ignores has no hook of ours for it either).
  const hooks = preferencesAsGsdReads(text)?.post_unit_hooks;
  if (!Array.isArray(hooks)) return null;
  const found = hooks.find((h) => h && typeof h === 'object' && typeof (h as { name?: unknown }).name === 'string' && (h as { name: string }).name.trim() === GATE_HOOK_NAME);
  return (found as Record<string, unknown> | undefined) ?? null;
}

/** The first PREFERENCES file of a scope that exists, and our hook in it (null: the file has none). */
function fromScope(files: string[], confined: boolean): { file: string; hook: Record<string, unknown> | null } | null {
  for (const file of files) {
    const hook = hookIn(file, confined);
    if (hook !== undefined) return { file, hook };
  }
  return null;
}

export function readGateConfig(o: PreferencesPlaces): GateConfigRead {
  const projectFiles = preferencesCandidates(o, false);
  const userFiles = preferencesCandidates(o, true);
  const looked = [...projectFiles, ...userFiles];
  const project = fromScope(projectFiles, true);
  const user = fromScope(userFiles, false);
  const found = project?.hook ? { ...project, scope: 'project' as const, hook: project.hook } : user?.hook ? { ...user, scope: 'user' as const, hook: user.hook } : null;
  if (!found) return { config: null, looked };
  const h = found.hook;
  const where = `the ${GATE_HOOK_NAME} hook in ${found.file}`;
  if (h.enabled === false) return { config: null, problem: `${where} is turned off (enabled: false)`, looked };
  const after = Array.isArray(h.after) ? h.after.map(String) : typeof h.after === 'string' ? [h.after] : [];
  if (!after.includes(GATE_TRIGGER)) return { config: null, problem: `${where} does not run after ${GATE_TRIGGER}`, looked };
  const artifact = typeof h.artifact === 'string' ? h.artifact.trim() : '';
  if (!artifact) return { config: null, problem: `${where} has no artifact, so GSD drops it (a blocking hook needs one)`, looked };
  if (String(h.criticality ?? '').trim() !== 'blocking') return { config: null, problem: `${where} is not blocking, so GSD would go on whatever the review says`, looked };
  const raw = typeof h.max_cycles === 'number' ? h.max_cycles : h.max_cycles === undefined ? 1 : Number(h.max_cycles);
  const maxCycles = Number.isFinite(raw) ? Math.max(1, Math.min(10, Math.round(raw))) : 1;
  return { config: { name: GATE_HOOK_NAME, artifact, maxCycles, file: found.file, scope: found.scope }, looked };
}
