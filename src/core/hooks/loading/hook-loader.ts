// Loads the enabled hooks into a registry: built-in ones by name, user ones from a hook folder
// (`.gsd/extensions/<source>/` in the workspace, or `~/.gsd/agent/extensions/<source>/`). A hook folder
// is a pi extension folder (docs/hooks.md): pi's own entry (`index.ts`/`index.js`, or what package.json's
// `pi` field lists) is GSD's to run with its API and never ours; our definitions live in the optional
// `gsd-hooks.js` / `.cjs` / `.mjs` beside it, which pi never loads (it reads only the folder's index or
// its manifest). Code from the workspace runs only when the host says the workspace is trusted;
// otherwise it is listed as skipped, never loaded. The module's exports: hook-module.ts.
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { importEsm } from '../engine/esm-import';
import { readHookConfig, type EnabledHook } from '../engine/hook-config';
import type { ProjectFiles } from '../../state/project-files';
import type { Diagnostic } from '../../model/types';
import type { LoadedHook, SkippedHook } from '../../dispatch/dispatch-outcome';
import type { HooksProvider } from '../lifecycle/hooks-provider';
import { chainBudgetMs, withinBudget } from '../engine/hook-budget';
import { readHookModule, type BuiltinHook, type HookApi } from './hook-module';
import { HookRegistry } from '../engine/hook-registry';
import type { GSDMiddleware, HookLog } from '../engine/middleware-types';
import { userHome } from '../../files/user-home';

export type { BuiltinHook, HookApi } from './hook-module';

export interface LoadedHooks {
  registry: HookRegistry;
  /** Lifecycle providers the hooks registered, in the hooks' order. */
  providers: HooksProvider[];
  /** Options per registered hook name. */
  options: Map<string, Readonly<Record<string, unknown>>>;
  loaded: LoadedHook[];
  skipped: SkippedHook[];
}

export interface LoadOptions {
  gsdDir: string;
  builtins: readonly BuiltinHook[];
  /** May code from the workspace (`.gsd/extensions/`) run? VS Code's workspace trust decides. */
  trusted: boolean;
  /** Folder of user-level hooks; default `~/.gsd/agent/extensions`. */
  userHooksDir?: string;
  log: HookLog;
  /** Called before each hook module from a hook folder is loaded: the CLI arms its process deadline there. */
  beforeHookCode?: () => void;
}

/** Our hook file in a hook folder, in the order looked for. */
export const HOOK_FILE_NAMES = ['gsd-hooks.js', 'gsd-hooks.cjs', 'gsd-hooks.mjs'] as const;

/** pi's manifest (`package.json` → `pi.extensions`): files GSD imports as pi extensions. */
function piManifestEntries(dir: string): string[] {
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { pi?: { extensions?: unknown } };
    const list = pkg.pi?.extensions;
    return Array.isArray(list) ? list.filter((e): e is string => typeof e === 'string').map((e) => path.resolve(dir, e)) : [];
  } catch {
    return [];
  }
}

/** The folder's `gsd-hooks.*` file, or why there is none to load. */
function findHookFile(dir: string): { file: string } | { reason: string } {
  const found = HOOK_FILE_NAMES.map((n) => path.join(dir, n)).filter((p) => fs.existsSync(p));
  if (found.length > 1) return { reason: `${dir} has ${found.map((f) => path.basename(f)).join(' and ')}; keep one` };
  if (found.length === 0) {
    const ts = fs.existsSync(path.join(dir, 'gsd-hooks.ts')) ? ' (gsd-hooks.ts is not loaded as it is: compile it to gsd-hooks.js)' : '';
    return { reason: `${dir} has no ${HOOK_FILE_NAMES.join(', ')}${ts}; its index file is pi's entry and is never run by GSD Review Loop` };
  }
  const file = found[0];
  // GSD would also import a file its manifest lists, with pi's API: that file is not a hook file.
  if (piManifestEntries(dir).includes(file)) return { reason: `${file} is listed in package.json's pi.extensions, so GSD runs it as a pi extension; keep hook definitions out of pi's list` };
  return { file };
}

async function importModule(file: string): Promise<unknown> {
  if (file.endsWith('.mjs')) return importEsm(pathToFileURL(file).href);
  // A fresh require each load, so an edited hook is picked up by the long-lived extension host.
  const req = createRequire(file);
  delete req.cache[req.resolve(file)];
  try {
    return req(file);
  } catch (error) {
    // A `.js` file in a folder whose package.json says `"type": "module"` is ES module code.
    if ((error as NodeJS.ErrnoException).code === 'ERR_REQUIRE_ESM') return importEsm(pathToFileURL(file).href);
    throw error;
  }
}

export async function loadHooks(enabled: readonly EnabledHook[], options: LoadOptions): Promise<LoadedHooks> {
  const out: LoadedHooks = { registry: new HookRegistry(), providers: [], options: new Map(), loaded: [], skipped: [] };
  const userDir = options.userHooksDir ?? path.join(userHome(), '.gsd', 'agent', 'extensions');
  for (const hook of enabled) {
    const api: HookApi = {
      registerHook: (name, middleware, opts = {}) => {
        // The registry holds hooks of every state type; what a hook stores is checked as plain data
        // when staged (hook-state.ts), and read back values are the hook's to validate.
        out.registry.register(name, middleware as unknown as GSDMiddleware, { ...opts, ...(hook.priority !== undefined ? { priority: hook.priority } : {}) }, hook.kind === 'builtin' ? 'builtin' : 'hook-folder');
        out.options.set(name, Object.freeze({ ...hook.options }));
      },
      registerProvider: (provider) => {
        out.providers.push(provider);
      },
      log: options.log,
    };
    try {
      if (hook.kind === 'builtin') {
        const builtin = options.builtins.find((b) => b.name === hook.name);
        if (!builtin) {
          out.skipped.push({ name: hook.name, reason: 'no built-in hook has this name' });
          continue;
        }
        builtin.register(api, Object.freeze({ ...hook.options }));
        out.loaded.push({ name: hook.name, kind: 'builtin' });
        continue;
      }
      const source = hook.source!;
      if (!/^[A-Za-z0-9@][\w.@-]*$/.test(source) || source.includes('..')) {
        out.skipped.push({ name: hook.name, reason: `source "${source}" must be a folder name, not a path` });
        continue;
      }
      const workspaceDir = path.join(options.gsdDir, 'extensions', source);
      const userHookDir = path.join(userDir, source);
      const isDir = (d: string) => fs.statSync(d, { throwIfNoEntry: false })?.isDirectory() === true;
      const inWorkspace = isDir(workspaceDir);
      const dir = inWorkspace ? workspaceDir : isDir(userHookDir) ? userHookDir : null;
      if (!dir) {
        out.skipped.push({ name: hook.name, reason: `no folder ${source} in .gsd/extensions/ or ${userDir}` });
        continue;
      }
      if (inWorkspace && !options.trusted) {
        out.skipped.push({ name: hook.name, reason: 'hook code from the workspace runs only in a trusted workspace' });
        continue;
      }
      const hookFile = findHookFile(dir);
      if ('reason' in hookFile) {
        out.skipped.push({ name: hook.name, reason: hookFile.reason });
        continue;
      }
      const entry = hookFile.file;
      // A module (or its registration) that never settles is skipped after the budget, not waited on.
      const budget = chainBudgetMs();
      options.beforeHookCode?.();
      const mod = readHookModule(await withinBudget(importModule(entry), budget, () => `did not finish loading within ${budget} ms`));
      if ('refused' in mod) {
        out.skipped.push({ name: hook.name, reason: `${entry} ${mod.refused}` });
        continue;
      }
      const hookOptions = Object.freeze({ ...hook.options });
      if (mod.register) await withinBudget(Promise.resolve(mod.register(api, hookOptions)), budget, () => `did not finish registering within ${budget} ms`);
      if (mod.provider) api.registerProvider(mod.provider);
      out.loaded.push({ name: hook.name, kind: 'user', from: entry });
    } catch (error) {
      out.skipped.push({ name: hook.name, reason: `failed to load: ${error instanceof Error ? error.message : String(error)}` });
    }
  }
  return out;
}

/** Reads `gsd_hooks` from PREFERENCES.md and loads what it enables. */
export async function loadConfiguredHooks(files: ProjectFiles, options: LoadOptions): Promise<LoadedHooks & { diagnostics: Diagnostic[] }> {
  const config = readHookConfig(files, options.gsdDir, options.builtins.map((b) => b.name));
  return { ...(await loadHooks(config.hooks, options)), diagnostics: config.diagnostics };
}
