// What a user hook file (`gsd-hooks.js`, `.cjs` or `.mjs`) may export, and the one reader of it.
// Three shapes, documented in the README's hook-author section:
//   1. a default export that is a function: `export default function (api, options) {…}` (in
//      CommonJS, `module.exports = function (api, options) {…}`);
//   2. a named function `register`: `export function register(api, options) {…}`;
//   3. a named object `provider`: lifecycle hooks (`onStop`, `onPreToolUse`, …), alone or beside 1 or 2.
// Anything else is refused with a diagnostic that says what was found and what to export instead.
import type { UnitStateOf } from '../engine/hook-state';
import type { ProjectStateOf, RegisterOptions } from '../engine/hook-registry';
import type { GSDMiddleware, HookLog } from '../engine/middleware-types';
import type { HooksProvider } from '../lifecycle/hooks-provider';
import { PROVIDER_METHODS } from '../lifecycle/agent-events';

/** What a hook module (built-in or user) gets to register itself with. */
export interface HookApi {
  /**
   * Adds a dispatch middleware under `name`. Its `ctx.store` holds the per-unit state the name
   * declared in `GSDUnitExtensions`, and `summarize` builds the project-wide view it declared in
   * `GSDStateExtensions` (both `unknown` for a name that declared none).
   */
  registerHook<N extends string>(name: N, middleware: GSDMiddleware<UnitStateOf<N>>, options?: RegisterOptions<ProjectStateOf<N>>): void;
  registerProvider(provider: HooksProvider): void;
  readonly log: HookLog;
}

export interface BuiltinHook {
  name: string;
  register(api: HookApi, options: Readonly<Record<string, unknown>>): void;
}

/** Registers a hook's middlewares and providers; `options` are its `gsd_hooks.enabled[].options`. */
export type HookRegister = (api: HookApi, options: Readonly<Record<string, unknown>>) => void | Promise<void>;

/** The documented exports of a user hook module (at least one of them). */
export interface HookModule {
  default?: HookRegister;
  register?: HookRegister;
  provider?: HooksProvider;
}

export type ReadHookModule = { register: HookRegister | null; provider: HooksProvider | null } | { refused: string };

const SHAPES = 'a default function, a function named `register`, or an object named `provider`';

function exportNames(mod: Record<string, unknown>): string {
  const names = Object.keys(mod).filter((k) => k !== '__esModule');
  return names.length ? names.map((n) => `\`${n}\``).join(', ') : 'nothing';
}

function checkProvider(value: unknown): string | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return `\`provider\` is ${value === null ? 'null' : typeof value}, not an object with lifecycle methods`;
  const known = new Set<string>(PROVIDER_METHODS);
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  const unknown = keys.filter((k) => /^on[A-Z]/.test(k) && !known.has(k));
  if (unknown.length) return `\`provider\` has ${unknown.join(', ')}, which no lifecycle event calls (known: ${[...known].join(', ')})`;
  const notFunctions = keys.filter((k) => known.has(k) && typeof record[k] !== 'function');
  if (notFunctions.length) return `\`provider\`.${notFunctions.join(', ')} must be a function`;
  if (!keys.some((k) => known.has(k))) return `\`provider\` has none of the lifecycle methods (${[...known].join(', ')})`;
  return null;
}

/**
 * The register function and provider of a loaded module (what `require` or `import()` returned),
 * or why it is refused. `mod` itself being a function is CommonJS's `module.exports = function`.
 */
export function readHookModule(loaded: unknown): ReadHookModule {
  if (typeof loaded === 'function') return { register: loaded as HookRegister, provider: null };
  if (loaded === null || typeof loaded !== 'object') return { refused: `exports ${typeof loaded}; export ${SHAPES}` };
  const mod = loaded as Record<string, unknown>;
  const def = mod.default;
  const named = mod.register;
  if (def !== undefined && typeof def !== 'function') {
    return { refused: `its default export is ${def === null ? 'null' : typeof def}, not a function; export ${SHAPES}` };
  }
  if (named !== undefined && typeof named !== 'function') return { refused: `\`register\` is ${typeof named}, not a function` };
  if (typeof def === 'function' && typeof named === 'function' && def !== named) {
    return { refused: 'exports both a default function and `register`; export one of them, so it is clear which one registers the hook' };
  }
  const register = (typeof def === 'function' ? def : typeof named === 'function' ? named : null) as HookRegister | null;
  let provider: HooksProvider | null = null;
  if (mod.provider !== undefined) {
    const problem = checkProvider(mod.provider);
    if (problem) return { refused: problem };
    provider = mod.provider as HooksProvider;
  }
  if (!register && !provider) {
    const hint = 'hooksProvider' in mod ? ' (`hooksProvider` is not read: name it `provider`)' : '';
    return { refused: `exports ${exportNames(mod)}; export ${SHAPES}${hint}` };
  }
  return { register, provider };
}
