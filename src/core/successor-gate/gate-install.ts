// `install-hooks --host gsd` / `uninstall-hooks --host gsd` and GSD: Install Agent Hooks on a
// successor project: our post-unit hook entry in the PREFERENCES.md GSD reads (preferences-entry.ts
// edits it), plus the launcher the entry's prompt runs, in the user's home. As a list of file
// changes, so the CLI and VS Code preview, apply and undo it as they do the other hosts' files.
// Which file that is: preferences-files.ts.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FileChange, ReadFile } from '../files/file-changes';
import { GATE_HOOK_NAME } from './gate-hook';
import { GATE_LAUNCHER_SH, gateLauncherFile } from './gate-launcher';
import { GUARD_EXTENSION_JS, guardExtensionFile } from './gate-guard-extension';
import { preferencesCandidates, preferencesFileFor, userGsdHome, type PreferencesPlaces } from './preferences-files';
import { addGateEntry, gateEntryState, PreferencesEditRefused, removeGateEntry } from './preferences-entry';

export interface GateInstallOptions extends PreferencesPlaces {
  /** The user's preferences instead of the project's (gsdDir is then unused). */
  user: boolean;
}

export interface GatePlan {
  changes: FileChange[];
  /** Why something was not done, one line each. */
  skipped: string[];
  notes: string[];
  /** The PREFERENCES.md GSD reads for this scope. */
  preferencesFile: string;
}

/** The first line of our guard file: how a file of that name is known to be ours. */
const GUARD_HEAD = GUARD_EXTENSION_JS.split('\n')[0];

/** A file of ours as it is now: its text, null when absent, undefined when it cannot be read. */
function readOwn(file: string, read: ReadFile): string | null | undefined {
  try {
    return read(file);
  } catch {
    return undefined;
  }
}

function describe(file: string, o: GateInstallOptions): string {
  return o.user ? file : path.relative(path.dirname(o.gsdDir), file) || file;
}

/** Reads a preferences file for a plan; a file we cannot read is a refusal, never taken as missing. */
function readPreferences(file: string, read: ReadFile): string | null {
  try {
    return read(file);
  } catch (error) {
    throw new PreferencesEditRefused((error as Error).message);
  }
}

/** Whether the project's `.gsd` is the user's GSD home itself (a repository may link it there): a project install would edit every project's settings. */
function isGsdHome(o: GateInstallOptions): boolean {
  const real = (p: string) => {
    try {
      return fs.realpathSync(p);
    } catch {
      return p;
    }
  };
  const gsd = real(o.gsdDir);
  return gsd === real(userGsdHome(o)) || gsd === real(path.join(o.home, '.gsd'));
}

export function planGateInstall(o: GateInstallOptions, read: ReadFile): GatePlan {
  const file = preferencesFileFor(o, o.user);
  const plan: GatePlan = { changes: [], skipped: [], notes: [], preferencesFile: file };
  const where = describe(file, o);
  if (!o.user && isGsdHome(o)) {
    plan.skipped.push(`this project's .gsd is your GSD home (${fs.realpathSync(o.gsdDir)}), whose PREFERENCES.md every project reads; nothing was written (use --user for that, on purpose)`);
    return plan;
  }
  try {
    if (!o.user) {
      // A user-level hook of our name that is not ours would be replaced by the project's: say so, write nothing.
      const userFile = preferencesFileFor(o, true);
      let userText: string | null = null;
      try {
        userText = read(userFile);
      } catch {
        userText = null;
      }
      const userState = (() => {
        try {
          return gateEntryState(userText);
        } catch {
          return 'absent' as const;
        }
      })();
      if (userState === 'foreign') {
        plan.skipped.push(`${userFile} has a post-unit hook named ${GATE_HOOK_NAME} that GSD Review Loop did not write; a project entry of that name would replace it in this project, so nothing was written (rename that hook, then install again)`);
        return plan;
      }
      if (userState !== 'absent') plan.notes.push(`${userFile} has our hook for every project too; in this project GSD uses the project's entry`);
    }
    const before = readPreferences(file, read);
    const after = addGateEntry(before);
    if (after !== before) plan.changes.push({ file, before, after, purpose: `GSD's post-unit hook ${GATE_HOOK_NAME}: after each execute-task in auto mode, the reviewer runs gsd-review gate (blocking, up to 5 cycles)`, ...(o.user ? {} : { root: o.gsdDir }) });
  } catch (error) {
    if (!(error instanceof PreferencesEditRefused)) throw error;
    plan.skipped.push(`${where}: ${error.message}`);
    return plan;
  }
  // The reviewer's guard, where GSD loads extensions: ours alone is replaced, anyone else's file of that name is left.
  const guard = guardExtensionFile(o.user ? userGsdHome(o) : o.gsdDir, o.user);
  const guardNow = readOwn(guard, read);
  if (guardNow === undefined) plan.skipped.push(`${describe(guard, o)} cannot be read (not a regular file?); the reviewer's guard was not installed`);
  else if (guardNow !== null && !guardNow.startsWith(GUARD_HEAD)) plan.skipped.push(`${describe(guard, o)} is not GSD Review Loop's; left as it is, and the reviewer's guard was not installed`);
  else if (guardNow !== GUARD_EXTENSION_JS) plan.changes.push({ file: guard, before: guardNow, after: GUARD_EXTENSION_JS, purpose: "the reviewer's guard: GSD loads it as an extension; during the gate's session only the review file may be written", ...(o.user ? {} : { root: o.gsdDir }) });
  const launcher = gateLauncherFile(o.home);
  const current = readOwn(launcher, read);
  if (current === undefined) plan.skipped.push(`${launcher} cannot be read (not a regular file?); the gate's prompt runs it: replace it with a file`);
  else if (current !== GATE_LAUNCHER_SH) plan.changes.push({ file: launcher, before: current, after: GATE_LAUNCHER_SH, purpose: "runs this machine's gsd-review for GSD's hook sessions (the gate's prompt names it, not a path of this machine)" });
  return plan;
}

export function planGateUninstall(o: GateInstallOptions, read: ReadFile): GatePlan {
  const plan: GatePlan = { changes: [], skipped: [], notes: [], preferencesFile: '' };
  // Ours may be in any of the files GSD tries (one that was read before another was created).
  for (const file of preferencesCandidates(o, o.user)) {
    if (!fs.existsSync(file)) continue;
    plan.preferencesFile ||= file;
    try {
      const before = readPreferences(file, read);
      if (before === null) continue;
      const state = gateEntryState(before);
      if (state === 'foreign') {
        plan.skipped.push(`${describe(file, o)}: its post-unit hook ${GATE_HOOK_NAME} has no markers of ours (not written by GSD Review Loop, or edited); left as it is: take it out by hand`);
        continue;
      }
      const after = removeGateEntry(before);
      if (after === before) continue;
      // A file install created holds nothing else: it goes, as it was not there before.
      plan.changes.push({ file, before, after: after === '' ? null : after, purpose: `GSD's post-unit hook ${GATE_HOOK_NAME} taken out; the rest of the file as it was`, ...(o.user ? {} : { root: o.gsdDir }) });
    } catch (error) {
      if (!(error instanceof PreferencesEditRefused)) throw error;
      plan.skipped.push(`${describe(file, o)}: ${error.message}`);
    }
  }
  if (!plan.preferencesFile) plan.preferencesFile = preferencesFileFor(o, o.user);
  const guard = guardExtensionFile(o.user ? userGsdHome(o) : o.gsdDir, o.user);
  const guardNow = readOwn(guard, read);
  if (typeof guardNow === 'string' && guardNow.startsWith(GUARD_HEAD)) plan.changes.push({ file: guard, before: guardNow, after: null, purpose: "the reviewer's guard (a GSD extension of ours) removed", ...(o.user ? {} : { root: o.gsdDir }) });
  return plan;
}

