// Whether Copilot CLI will run the review guard in a project. It runs no repository hooks (neither
// `.github/hooks` nor `.claude/settings.json`) in a folder the user has not trusted — the folder listed
// in `trustedFolders` of `~/.copilot/config.json` (compared as equal paths, 1.0.102) — so with our
// hooks installed only in the project, a reviewer started there works unguarded. Hooks installed for
// the user (`~/.copilot/hooks`) run everywhere. Said before a review is dispatched, never guessed
// silently.
import * as path from 'node:path';
import { readBoundedText } from '../files/bounded-read';
import { realPathOf } from '../files/confine';

const HOOKS_FILE = 'gsd-review-loop.json';

export interface TrustFiles {
  /** The project root. */
  root: string;
  /** The user's home folder. */
  home: string;
  /** A file's text, or null when it is missing or unreadable. */
  read(file: string): string | null;
  /** The real path of a folder (symlinks resolved), or the path as it is when it cannot be resolved. */
  realPath(p: string): string;
}

/** The folders Copilot CLI trusts (none when its config is missing or not JSON: nothing is known to be trusted). */
function trustedFolders(f: TrustFiles): string[] {
  const text = f.read(path.join(f.home, '.copilot', 'config.json'));
  if (text === null) return [];
  let config: unknown;
  try {
    config = JSON.parse(text);
  } catch {
    return [];
  }
  const list = config && typeof config === 'object' ? (config as Record<string, unknown>).trustedFolders : undefined;
  return Array.isArray(list) ? list.filter((p): p is string => typeof p === 'string' && p !== '') : [];
}

const samePath = (a: string, b: string): boolean => {
  // path.resolve drops trailing separators (the root aside).
  const norm = (p: string) => path.resolve(p);
  return process.platform === 'win32' || process.platform === 'darwin' ? norm(a).toLowerCase() === norm(b).toLowerCase() : norm(a) === norm(b);
};

/**
 * The plain warning for a review about to be dispatched, or null when the guard will run in Copilot
 * CLI (the folder is trusted, our hooks are installed for the user) or Copilot CLI's hooks are not ours
 * in this project at all.
 */
export function copilotGuardWarning(f: TrustFiles): string | null {
  if (f.read(path.join(f.root, '.github', 'hooks', HOOKS_FILE)) === null) return null;
  if (f.read(path.join(f.home, '.copilot', 'hooks', HOOKS_FILE)) !== null) return null;
  const root = f.realPath(f.root);
  if (trustedFolders(f).some((t) => samePath(t, root) || samePath(t, f.root) || samePath(f.realPath(t), root))) return null;
  return (
    `Copilot CLI does not trust ${f.root} yet, and in an untrusted folder it runs no repository hooks: ` +
    `the reviewer's guard will not run, and a reviewer started there by Copilot CLI can edit any file. ` +
    `Trust the folder in Copilot CLI (start \`copilot\` in it and accept the trust prompt), or install the hooks for your user: ` +
    `gsd-review install-hooks --host copilot-cli --user.`
  );
}

/** The files as they are on disk (bounded reads; a folder that cannot be resolved is taken as named). */
export function trustFilesOnDisk(root: string, home: string): TrustFiles {
  return {
    root,
    home,
    read: (file) => {
      try {
        return readBoundedText(file);
      } catch {
        return null;
      }
    },
    realPath: (p) => {
      try {
        return realPathOf(p);
      } catch {
        return p;
      }
    },
  };
}

/** The warning set at the head of a review's prompt, where the agent and the user both read it. */
export function withGuardWarning(prompt: string, warning: string | null): string {
  return warning ? `WARNING (GSD review loop): ${warning}\n\n${prompt}` : prompt;
}
