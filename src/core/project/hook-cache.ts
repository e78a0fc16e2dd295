// The project's hooks, loaded once and kept: loaded again only when our settings file
// (gsd-review-loop.yaml), PREFERENCES.md or a hook folder under `.gsd/extensions/` changed (told
// through `changed`, and checked by time and size on each use: the file watcher can report an edit
// after a click made right after it), when a user-level hook's entry file changed on disk (that
// folder is outside what the watcher sees), or when the workspace's trust changed. The loader itself
// (hooks/loading/hook-loader.ts) is unchanged.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadConfiguredHooks, type BuiltinHook, type LoadedHooks } from '../hooks/loading/hook-loader';
import type { HookLog } from '../hooks/engine/middleware-types';
import type { Diagnostic } from '../model/types';
import type { ProjectFiles } from '../state/project-files';
import { SETTINGS_FILE } from '../hooks/engine/settings-file';

export type ProjectHooks = LoadedHooks & { diagnostics: Diagnostic[] };

export interface HookSettings {
  builtins: readonly BuiltinHook[];
  /** May code from the workspace run? A function when it can change (VS Code's workspace trust). */
  trusted: boolean | (() => boolean);
  userHooksDir?: string;
  log: HookLog;
  beforeHookCode?: () => void;
}

function stampOf(file: string): string {
  try {
    // Most projects have no settings file or extensions folder: no error made (and thrown) for those.
    const s = fs.statSync(file, { throwIfNoEntry: false });
    return s ? `${s.mtimeMs}:${s.size}` : 'missing';
  } catch {
    return 'missing';
  }
}

/** Whether a changed path is one the hooks depend on: our settings file, the preferences, or a hook folder in the workspace. */
export function affectsHooks(gsdDir: string, changedPath: string): boolean {
  const rel = path.relative(gsdDir, changedPath);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return false;
  const [first] = rel.split(path.sep);
  return first.toUpperCase() === 'PREFERENCES.MD' || first === SETTINGS_FILE || first === 'extensions';
}

export class HookCache {
  private loading: Promise<ProjectHooks> | null = null;
  private trustedWhenLoaded = false;
  /** Time and size of each user hook's entry file when it was loaded. */
  private entryStamps: Array<[string, string]> = [];
  /** Time and size of the configuration's own files and the hook folders' folder when it was loaded. */
  private configStamps: Array<[string, string]> = [];
  /** How many times the hooks were loaded (tests, the log). */
  loads = 0;
  /** The files the configuration is read from, and `.gsd/extensions/` (its time changes as hook folders come and go). */
  private readonly configFiles: readonly string[];

  constructor(
    private readonly gsdDir: string,
    private readonly files: () => ProjectFiles,
    private readonly settings: HookSettings,
  ) {
    this.configFiles = [path.join(gsdDir, 'PREFERENCES.md'), path.join(gsdDir, SETTINGS_FILE), path.join(gsdDir, 'extensions')];
  }

  private trusted(): boolean {
    const t = this.settings.trusted;
    return typeof t === 'function' ? t() : t;
  }

  private stale(): boolean {
    if (this.trustedWhenLoaded !== this.trusted()) return true;
    return [...this.configStamps, ...this.entryStamps].some(([file, stamp]) => stampOf(file) !== stamp);
  }


  get(): Promise<ProjectHooks> {
    if (this.loading && !this.stale()) return this.loading;
    const trusted = this.trusted();
    this.trustedWhenLoaded = trusted;
    this.entryStamps = [];
    // Read afresh, whether or not the watcher has told the project's files about the change yet.
    const files = this.files();
    for (const file of this.configFiles) files.invalidateTree(file);
    this.configStamps = this.configFiles.map((file) => [file, stampOf(file)]);
    this.loads++;
    const loading = loadConfiguredHooks(files, {
      gsdDir: this.gsdDir,
      builtins: this.settings.builtins,
      trusted,
      log: this.settings.log,
      ...(this.settings.userHooksDir ? { userHooksDir: this.settings.userHooksDir } : {}),
      ...(this.settings.beforeHookCode ? { beforeHookCode: this.settings.beforeHookCode } : {}),
    }).then(
      (hooks) => {
        if (this.loading === loading) this.entryStamps = hooks.loaded.filter((h) => h.from).map((h) => [h.from!, stampOf(h.from!)]);
        return hooks;
      },
      (error: unknown) => {
        // Never kept: the next call tries again.
        if (this.loading === loading) this.loading = null;
        throw error;
      },
    );
    this.loading = loading;
    return loading;
  }

  /** Drops the loaded hooks when one of the paths is theirs; true when it did. */
  changed(paths: readonly string[]): boolean {
    // A loaded user hook's own folder counts too, wherever the loader found it.
    const dirs = this.entryStamps.map(([file]) => path.dirname(file) + path.sep);
    if (!paths.some((p) => affectsHooks(this.gsdDir, p) || dirs.some((d) => p.startsWith(d)))) return false;
    this.loading = null;
    return true;
  }

  reset(): void {
    this.loading = null;
  }
}
