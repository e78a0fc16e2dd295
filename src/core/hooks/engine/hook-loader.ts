// Loads the enabled hooks into a registry: built-in ones by name, user ones from a folder
// (`.gsd/extensions/<source>/` in the workspace, or `~/.gsd/agent/extensions/<source>/`). Code from
// the workspace runs only when the host says the workspace is trusted; otherwise it is listed as
// skipped, never loaded.
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { importEsm } from './esm-import';
import { readHookConfig, type EnabledHook } from './hook-config';
import type { ProjectFiles } from '../../state/project-files';
import type { Diagnostic } from '../../model/types';
import type { LoadedHook, SkippedHook } from '../../dispatch/dispatch-outcome';
import type { HooksProvider } from '../lifecycle/hooks-provider';
import { chainBudgetMs, withinBudget } from './hook-budget';
import { HookRegistry, type GSDMiddleware, type HookLog, type RegisterOptions } from './middleware';

/** What a hook module (built-in or user) gets to register itself with. */
export interface HookApi {
  registerHook(name: string, middleware: GSDMiddleware<any>, options?: RegisterOptions): void;
  registerProvider(provider: HooksProvider): void;
  readonly log: HookLog;
}

export interface BuiltinHook {
  name: string;
  register(api: HookApi, options: Readonly<Record<string, unknown>>): void;
}

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
}

const ENTRY_NAMES = ['index.js', 'index.cjs', 'index.mjs'];

function findEntry(dir: string): string | null {
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { main?: string };
    if (pkg.main) {
      const main = path.resolve(dir, pkg.main);
      if (main.startsWith(dir + path.sep) && fs.existsSync(main)) return main;
    }
  } catch {
    // no package.json: look for index.*
  }
  const found = ENTRY_NAMES.map((n) => path.join(dir, n)).find((p) => fs.existsSync(p));
  return found ?? null;
}

async function importModule(entry: string): Promise<Record<string, unknown>> {
  if (entry.endsWith('.mjs')) return (await importEsm(pathToFileURL(entry).href)) as Record<string, unknown>;
  // A fresh require each load, so an edited hook is picked up by the long-lived extension host.
  const req = createRequire(entry);
  delete req.cache[req.resolve(entry)];
  return req(entry) as Record<string, unknown>;
}

export async function loadHooks(enabled: readonly EnabledHook[], options: LoadOptions): Promise<LoadedHooks> {
  const out: LoadedHooks = { registry: new HookRegistry(), providers: [], options: new Map(), loaded: [], skipped: [] };
  const userDir = options.userHooksDir ?? path.join(os.homedir(), '.gsd', 'agent', 'extensions');
  for (const hook of enabled) {
    const api: HookApi = {
      registerHook: (name, middleware, opts = {}) => {
        out.registry.register(name, middleware as GSDMiddleware, { ...opts, ...(hook.priority !== undefined ? { priority: hook.priority } : {}) });
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
      const inWorkspace = fs.existsSync(workspaceDir);
      const dir = inWorkspace ? workspaceDir : fs.existsSync(userHookDir) ? userHookDir : null;
      if (!dir) {
        out.skipped.push({ name: hook.name, reason: `no folder ${source} in .gsd/extensions/ or ${userDir}` });
        continue;
      }
      if (inWorkspace && !options.trusted) {
        out.skipped.push({ name: hook.name, reason: 'hook code from the workspace runs only in a trusted workspace' });
        continue;
      }
      const entry = findEntry(dir);
      if (!entry) {
        out.skipped.push({ name: hook.name, reason: `${dir} has no index.js, index.cjs, index.mjs or package.json main` });
        continue;
      }
      // A module (or its registration) that never settles is skipped after the budget, not waited on.
      const budget = chainBudgetMs();
      const mod = await withinBudget(importModule(entry), budget, () => `did not finish loading within ${budget} ms`);
      const init = (typeof mod.default === 'function' ? mod.default : typeof mod === 'function' ? mod : mod.register) as unknown;
      if (typeof init === 'function') {
        await withinBudget(Promise.resolve((init as (api: HookApi) => unknown)(api)), budget, () => `did not finish registering within ${budget} ms`);
      }
      const provider = (mod.provider ?? mod.hooksProvider ?? (mod.default as Record<string, unknown> | undefined)?.provider) as HooksProvider | undefined;
      if (provider && typeof provider === 'object') api.registerProvider(provider);
      if (typeof init !== 'function' && !provider) {
        out.skipped.push({ name: hook.name, reason: `${entry} exports neither a function nor a provider` });
        continue;
      }
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
