// One hook's context in one run of the chain, and the frozen copy of a decision later hooks see.
import type { HookStateHandle } from './hook-state';
import type { ChainHost, DeepReadonly, DispatchDecision, HookDiagnostic, HookLog, HookTrace, MiddlewareContext, UnitDecision, UnitResult } from './middleware-types';
import type { GSDState } from '../../model/types';
import { deepFreeze } from '../../model/deep-freeze';

/** What a context needs of its run: the host, and the decision and ignored ones the run shares. */
export interface ContextRun {
  readonly host: ChainHost;
  decision: DispatchDecision | null;
  readonly ignored: Array<{ hook: string; unitType: string; unitId: string }>;
  /**
   * What the run's hooks see when no caller can cancel it: a signal of this run only that never
   * aborts, made when a hook first asks (the first AbortController of a process costs about 0.2 ms,
   * and every `gsd-review next` paid it while no built-in hook looks at the signal). One per run, so
   * listeners a hook leaves on it go with the run.
   */
  ownSignal?: AbortSignal;
}

/** A decision as later hooks see it: a frozen copy, so no later hook can rewrite the unit. */
function frozenDecision(value: UnitDecision, source: string): DispatchDecision {
  let data: Record<string, unknown> | undefined;
  if (value.data !== undefined) {
    try {
      // A JSON round trip: the decision is recorded as JSON, so cycles and BigInts are refused here.
      data = deepFreeze(JSON.parse(JSON.stringify(value.data)) as Record<string, unknown>);
    } catch (error) {
      throw new Error(`hook ${source} decided with data that is not plain data (${firstLine(error)})`, { cause: error });
    }
  }
  const copy: DispatchDecision = { unitType: value.unitType, unitId: value.unitId, prompt: value.prompt, source };
  if (value.reason !== undefined) copy.reason = value.reason;
  if (data !== undefined) copy.data = data;
  return Object.freeze(copy);
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0];
}

/**
 * One hook's context. A class whose host-derived members are made on first use: most hooks touch
 * only `state` and `decision`, and making every member for every hook cost more than the chain.
 */
export class Context implements MiddlewareContext {
  // Declared, not initialised: five fields stored per hook per run cost more than the rare use.
  private declare hookOptions: Readonly<Record<string, unknown>> | undefined;
  private declare storeHandle: HookStateHandle | undefined;
  private declare hookLog: HookLog | undefined;
  private declare writer: ((relativePath: string, text: string) => void) | undefined;
  private declare reporter: ((diagnostic: HookDiagnostic) => void) | undefined;

  constructor(
    private readonly run: ContextRun,
    private readonly entry: HookTrace,
    readonly hook: string,
  ) {}

  get phase(): 'dispatch' | 'after' {
    return this.run.host.phase;
  }

  get state(): DeepReadonly<GSDState> {
    return this.run.host.state;
  }

  get result(): Readonly<UnitResult> | null {
    return this.run.host.result;
  }

  get options(): Readonly<Record<string, unknown>> {
    return (this.hookOptions ??= this.run.host.options(this.hook));
  }

  get store(): HookStateHandle {
    return (this.storeHandle ??= this.run.host.handleFor(this.hook));
  }

  get readGsdFile(): (relativePath: string) => string | null {
    return this.run.host.readGsdFile;
  }

  get writeGsdFile(): (relativePath: string, text: string) => void {
    const host = this.run.host;
    return (this.writer ??= (rel, text) => host.writeGsdFile(this.hook, rel, text));
  }

  get report(): (diagnostic: HookDiagnostic) => void {
    const host = this.run.host;
    return (this.reporter ??= (d) => host.report(this.hook, d));
  }

  get signal(): AbortSignal {
    return this.run.host.signal ?? (this.run.ownSignal ??= new AbortController().signal);
  }

  get log(): HookLog {
    return (this.hookLog ??= this.run.host.log(this.hook));
  }

  get decision(): UnitDecision | null {
    return this.run.decision;
  }

  set decision(value: UnitDecision | null) {
    if (this.phase !== 'dispatch' || value === null) return;
    if (this.run.decision) {
      this.run.ignored.push({ hook: this.hook, unitType: value.unitType, unitId: value.unitId });
      return;
    }
    this.run.decision = frozenDecision(value, this.hook);
    this.entry.decided = true;
  }

  get decidedBy(): string | null {
    return this.run.decision?.source ?? null;
  }
}
