// Chains lifecycle providers (docs/architecture.md, "The hook contract"): for a decision, the first deny (or block) wins, otherwise the
// first non-null answer; void hooks run in every provider. A provider that throws or overruns its
// time budget is logged and skipped, never fatal.
import type { DecisionMethod, HookContext, HooksProvider, SessionEndInput, VoidMethod } from './hooks-provider';

export interface CompositeOptions {
  /** Budget per provider call, in ms. */
  timeoutMs?: number;
  log?: (message: string) => void;
}

const PENDING = Symbol('pending');
const TIMED_OUT = Symbol('timed out');

function isRefusal(result: unknown): boolean {
  const r = result as { permissionDecision?: string; decision?: string; block?: unknown } | null;
  return r !== null && typeof r === 'object' && (r.permissionDecision === 'deny' || r.decision === 'block' || r.block !== undefined);
}

type Input<M extends DecisionMethod | VoidMethod> = Parameters<NonNullable<HooksProvider[M]>>[0];
type Output<M extends DecisionMethod> = Awaited<ReturnType<NonNullable<HooksProvider[M]>>>;

export class CompositeHooksProvider implements HooksProvider {
  readonly name = 'composite';
  private readonly timeoutMs: number;
  private readonly log: (message: string) => void;

  constructor(
    private readonly providers: readonly HooksProvider[],
    options: CompositeOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 5000;
    this.log = options.log ?? (() => undefined);
  }

  /**
   * One provider call with its budget. A timer is armed only when the call does not settle at once
   * (the common case is a provider with nothing to say), which keeps a pass through five providers
   * in the microseconds.
   */
  private async call<T>(provider: HooksProvider, method: string, invoke: () => Promise<T> | undefined): Promise<T | null> {
    const label = `${provider.name ?? 'provider'}.${method}`;
    try {
      const promise = invoke();
      if (promise === undefined) return null;
      let result: T | typeof PENDING | typeof TIMED_OUT = await Promise.race([promise, Promise.resolve(PENDING)]);
      if (result === PENDING) {
        let timer: NodeJS.Timeout | undefined;
        const deadline = new Promise<typeof TIMED_OUT>((resolve) => {
          // Ref'd: a provider whose promise can never settle is skipped after the budget; the
          // process does not exit early and lose the other providers' answers.
          timer = setTimeout(() => resolve(TIMED_OUT), this.timeoutMs);
        });
        try {
          result = await Promise.race([promise, deadline]);
        } finally {
          clearTimeout(timer);
        }
        if (result === TIMED_OUT) {
          this.log(`${label} took longer than ${this.timeoutMs} ms; skipped`);
          promise.catch(() => undefined);
          return null;
        }
      }
      return result as T;
    } catch (error) {
      this.log(`${label} failed: ${error instanceof Error ? error.message : String(error)}; skipped`);
      return null;
    }
  }

  private async decide<M extends DecisionMethod>(method: M, input: Input<M>, ctx: HookContext): Promise<Output<M> | null> {
    let first: Output<M> | null = null;
    for (const provider of this.providers) {
      const fn = provider[method] as ((i: Input<M>, c: HookContext) => Promise<Output<M>>) | undefined;
      if (!fn) continue;
      const result = await this.call(provider, method, () => fn.call(provider, input, ctx));
      if (result === null || result === undefined) continue;
      if (isRefusal(result)) return result;
      first ??= result;
    }
    return first;
  }

  private async all<M extends VoidMethod>(method: M, input: Input<M>, ctx: HookContext): Promise<void> {
    await Promise.all(
      this.providers.map((provider) => {
        const fn = provider[method] as ((i: Input<M>, c: HookContext) => Promise<void>) | undefined;
        return fn ? this.call(provider, method, () => fn.call(provider, input, ctx)) : undefined;
      }),
    );
  }

  onSessionStart(input: Input<'onSessionStart'>, ctx: HookContext) {
    return this.decide('onSessionStart', input, ctx);
  }
  onUserPromptSubmitted(input: Input<'onUserPromptSubmitted'>, ctx: HookContext) {
    return this.decide('onUserPromptSubmitted', input, ctx);
  }
  onPreToolUse(input: Input<'onPreToolUse'>, ctx: HookContext) {
    return this.decide('onPreToolUse', input, ctx);
  }
  onPostToolUse(input: Input<'onPostToolUse'>, ctx: HookContext) {
    return this.decide('onPostToolUse', input, ctx);
  }
  onErrorOccurred(input: Input<'onErrorOccurred'>, ctx: HookContext) {
    return this.decide('onErrorOccurred', input, ctx);
  }
  onPreCompact(input: Input<'onPreCompact'>, ctx: HookContext) {
    return this.decide('onPreCompact', input, ctx);
  }
  onSubagentStart(input: Input<'onSubagentStart'>, ctx: HookContext) {
    return this.decide('onSubagentStart', input, ctx);
  }
  onSubagentStop(input: Input<'onSubagentStop'>, ctx: HookContext) {
    return this.decide('onSubagentStop', input, ctx);
  }
  onStop(input: Input<'onStop'>, ctx: HookContext) {
    return this.decide('onStop', input, ctx);
  }
  onSessionEnd(input: SessionEndInput, ctx: HookContext) {
    return this.all('onSessionEnd', input, ctx);
  }
}
