// Which hooks run, in what order: lower priority first, ties by registration order.
import type { DeepReadonly, GSDMiddleware } from './middleware-types';
import type { GSDState, GSDStateExtensions } from '../../model/types';

export interface HookRegistration {
  name: string;
  middleware: GSDMiddleware;
  priority: number;
  /** Registration order, for ties. */
  order: number;
  /** One of ours (built in), not hook code from a hook folder: see runMiddleware's watch. */
  builtin: boolean;
  /** Builds `state.extensions[name]` from the state before the chain runs. */
  summarize?: (state: DeepReadonly<GSDState>) => unknown;
}

/** `P`: the project-wide view the hook declared in `GSDStateExtensions` (what `summarize` builds). */
export interface RegisterOptions<P = unknown> {
  priority?: number;
  /** Builds `state.extensions[name]`; without it, the hook's per-unit state by unit id. */
  summarize?: (state: DeepReadonly<GSDState>) => P;
}

/** The project-wide view a hook name declared in `GSDStateExtensions`, or `unknown`. */
export type ProjectStateOf<N extends string> = N extends keyof GSDStateExtensions ? GSDStateExtensions[N] : unknown;

export const DEFAULT_PRIORITY = 100;

/** Letters (either case, spelled out: see gsd-layout.ts), digits, `.`, `_` and `-`. */
export const HOOK_NAME = /^[a-zA-Z0-9][a-zA-Z0-9._-]*$/;

export class HookRegistry {
  private readonly hooks: HookRegistration[] = [];
  /** The order every run uses, sorted once per registration rather than once per run. */
  private sorted: readonly HookRegistration[] | null = null;

  /** `origin`: the loader's to say, never the hook's (its options cannot claim to be built in). */
  register(name: string, middleware: GSDMiddleware, options: RegisterOptions = {}, origin: 'builtin' | 'hook-folder' = 'hook-folder'): void {
    if (!HOOK_NAME.test(name)) throw new Error(`hook name "${name}" must be letters, digits, . _ -`);
    if (this.hooks.some((h) => h.name === name)) throw new Error(`a hook named "${name}" is already registered`);
    const reg: HookRegistration = { name, middleware, priority: options.priority ?? DEFAULT_PRIORITY, order: this.hooks.length, builtin: origin === 'builtin' };
    if (options.summarize) reg.summarize = options.summarize;
    // Frozen: a hook that reaches its run's registrations cannot mark itself built in (unwatched).
    this.hooks.push(Object.freeze(reg));
    this.sorted = null;
  }

  /** Lower priority first; equal priorities in registration order. */
  ordered(): readonly HookRegistration[] {
    return (this.sorted ??= Object.freeze([...this.hooks].sort((a, b) => a.priority - b.priority || a.order - b.order)));
  }

  has(name: string): boolean {
    return this.hooks.some((h) => h.name === name);
  }
}
