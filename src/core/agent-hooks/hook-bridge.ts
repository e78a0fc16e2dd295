// The agent-hook bridge: one hook payload in, one answer out, through the same core and hooks as
// `next` and the extension. It never throws and never blocks the agent because of its own failure:
// anything it cannot handle yields no answer (the host then proceeds as usual).
import { AGENT_EVENTS } from '../hooks/lifecycle/agent-events';
import * as path from 'node:path';
import { CompositeHooksProvider } from '../hooks/lifecycle/composite-hooks-provider';
import { insideGsd, NothingDispatchedError, readConfined } from '../dispatch/dispatch';
import { isWithin, realPathOf } from '../files/confine';
import { runtimeDir } from '../dispatch/dispatch-record';
import { ensureRuntimeDir } from '../files/runtime-folder';
import type { BuiltinHook } from '../hooks/loading/hook-loader';
import { DefaultHooksProvider, type HookContext, type HooksProvider, type LifecycleHost } from '../hooks/lifecycle/hooks-provider';
import { NodeGsdStore, type GsdStore } from '../files/gsd-store';
import { locateProject, type GsdProject } from '../state/locate-project';
import { openLocatedProject, type Project } from '../project/open-project';
import { detectHost, GITHUB_HOOKS_FILE, githubEntryInstalled, isDuplicateRun, type AgentHost, type RunningHost } from './agent-host';
import { answerKey, recordingStore, storeAnswer } from './answer-cache';
import { appendHookLog, type HookLogEntry } from './hook-log';
import { eventName, formatAnswer, normalizePayload, type HookEvent, type NormalizedPayload } from './hook-payload';
import { failClosedAnswer } from './fail-closed';
import { firstHookProject } from './hook-project';
import { successorStandsAside } from './successor-stand-aside';
import { userHome } from '../files/user-home';

export interface BridgeOptions {
  /** The project; default: the one the host names (hook-project.ts), else the payload's `cwd`. */
  root?: string;
  builtins: readonly BuiltinHook[];
  trusted: boolean;
  userHooksDir?: string;
  store?: GsdStore;
  /** Per-provider budget in ms. */
  timeoutMs?: number;
  /** The `--host` the install wrote into the command (which of our files runs this). */
  host?: AgentHost | null;
  /** The hook process's environment (default: process.env). */
  env?: NodeJS.ProcessEnv;
  /** Where user-level hook files live (default: the home folder). */
  home?: string;
  /**
   * Record a cacheable answer for the small hook entry (answer-cache.ts), under this context (the
   * command's own options); absent: no recording.
   */
  cacheContext?: string | null;
}

export interface BridgeResult {
  event: HookEvent | null;
  host?: RunningHost;
  output: Record<string, unknown> | null;
  /** Why there is no answer, when there is none for a reason other than "nothing to say". */
  skipped?: string;
  error?: string;
  /** Things refused on the way (e.g. a hook log that is a link out of `.gsd`): for stderr. */
  warnings?: string[];
}

const RUNTIME_STATE = 'lifecycle.json';

function makeHost(
  engine: Project,
  logLines: string[],
  store: GsdStore,
  hookOptions: (hook: string) => Readonly<Record<string, unknown>>,
): LifecycleHost {
  const project = engine.location;
  const runtimeFile = path.join(runtimeDir(project.gsdDir), RUNTIME_STATE);
  const readRuntime = (): { text: string | null; data: Record<string, unknown> } => {
    const text = store.readText(runtimeFile);
    try {
      return { text, data: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
    } catch {
      return { text, data: {} };
    }
  };
  return {
    root: project.root,
    gsdDir: project.gsdDir,
    // One engine for the whole payload: the state is read once, the hooks loaded once.
    state: () => engine.state(),
    currentUnit: () => engine.currentUnit(),
    preview: () => engine.preview(),
    dispatch: () => engine.dispatch(),
    complete: async () => {
      try {
        return await engine.complete();
      } catch (error) {
        if (error instanceof NothingDispatchedError) return null;
        throw error;
      }
    },
    readGsdFile: (rel) => readConfined(project.gsdDir, store, rel, (m) => logLines.push(m)),
    createGsdFile: (rel, text) => {
      const abs = insideGsd(project.gsdDir, rel);
      if (!abs) return false;
      return store.writeIfUnchanged(abs, text, null) === 'written';
    },
    runtimeGet: <T>(key: string) => readRuntime().data[key] as T | undefined,
    runtimeSet: (key, value) => {
      const { text, data } = readRuntime();
      // Unchanged state is not written again: an answer that changed nothing can be cached.
      if (JSON.stringify(data[key] ?? null) === JSON.stringify(value ?? null)) return;
      ensureRuntimeDir(project.gsdDir);
      store.writeIfUnchanged(runtimeFile, JSON.stringify({ ...data, [key]: value }, null, 2) + '\n', text);
    },
    options: hookOptions,
    log: (m) => logLines.push(m),
  };
}

/** Calls the provider method the event table names for this event (null when it has none). */
function call(provider: HooksProvider, p: NormalizedPayload, ctx: HookContext): Promise<unknown> {
  const spec = AGENT_EVENTS[p.event];
  // The payload reader pairs each event with its method's input type; the table names the method.
  const method = provider[spec.method] as ((input: unknown, ctx: HookContext) => Promise<unknown>) | undefined;
  if (!method) return Promise.resolve(null);
  const answer = method.call(provider, p.input, ctx);
  return spec.answer === 'none' ? Promise.resolve(answer).then(() => null) : answer;
}

/** A short description of the project for session context. */
export async function describeProject(host: LifecycleHost): Promise<string | null> {
  const s = host.state();
  const lines = [`GSD project: phase ${s.phase}.`];
  const next = (await host.preview()).decision;
  if (next) lines.push(`Next unit: ${next.unitType} ${next.unitId}${next.source === 'default' ? '' : ` (decided by ${next.source})`}.`);
  if (s.activeTask) lines.push(`Next task: ${s.activeMilestone?.id}/${s.activeSlice?.id}/${s.activeTask.id} (${s.activeTask.title}).`);
  else if (s.activeSlice) lines.push(`Active slice: ${s.activeMilestone?.id}/${s.activeSlice.id} (${s.activeSlice.title}).`);
  const unit = host.currentUnit();
  if (unit) lines.push(`In progress: ${unit.unitType} ${unit.unitId}${typeof unit.data?.cycle === 'number' ? ` (review cycle ${unit.data.cycle})` : ''}, dispatched by ${unit.source}.`);
  const open = s.pendingActions;
  if (open.length) {
    lines.push(`Open pending actions (${open.length}):`);
    for (const a of open.slice(0, 5)) lines.push(`- ${a.taskId}: ${a.text}`);
    if (open.length > 5) lines.push(`- … and ${open.length - 5} more`);
  }
  return lines.join('\n');
}

/** Runs one hook payload; always resolves. */
export async function runAgentHook(payloadText: string, options: BridgeOptions, fallbackEvent?: string): Promise<BridgeResult> {
  const payload = normalizePayload(payloadText, fallbackEvent);
  const env = options.env ?? process.env;
  if (!payload) {
    // A tool call we cannot read is still refused its free pass while a review runs.
    const event = eventName(fallbackEvent ?? null);
    const gsdDir = firstHookProject({ root: options.root ?? null, env, cwd: process.cwd() }, gsdDirAt);
    const output = event === 'PreToolUse' ? failClosedAnswer(event, gsdDir, detectHost({}, env, options.host ?? null).dialect, 'its payload is not a hook payload this bridge reads') : null;
    return { event, output, skipped: 'not a hook payload this bridge knows' };
  }
  const started = Date.now();
  const logLines: string[] = [];
  const project = firstHookProject({ root: options.root ?? null, env, cwd: process.cwd(), payloadCwd: payload.cwd }, projectAt);
  if (!project) return { event: payload.event, output: null, skipped: 'no .gsd folder here' };
  // GSD's successor runs its own reviews there and only its attempts write: no hook of ours, no log line in .gsd.
  const aside = successorStandsAside(project.gsdDir);
  if (aside) return { event: payload.event, output: null, skipped: aside, warnings: [`${payload.event}: ${aside}`] };
  const running = detectHost(payload.raw, env, options.host ?? null);
  const home = options.home ?? userHome();
  const root = project.root;
  if (isDuplicateRun(running, payload.event, () => githubEntryInstalled(root, home))) {
    return { event: payload.event, host: running, output: null, skipped: 'VS Code runs this event through .github/hooks already' };
  }
  const key = options.cacheContext != null ? answerKey(payload.event, payload.raw, `${options.cacheContext}\u0000${running.dialect}\u0000${running.origin ?? ''}`) : null;
  const recording = key ? recordingStore(options.store ?? new NodeGsdStore()) : null;
  const store = recording?.store ?? options.store ?? new NodeGsdStore();
  const entry: HookLogEntry = { at: new Date().toISOString(), event: payload.event, sessionId: payload.sessionId, answer: 'none', ms: 0 };
  // Filled in `finally`, after the result object was made: shared by reference.
  const warnings: string[] = [];
  try {
    const engine = openLocatedProject(project, {
      store,
      builtins: options.builtins,
      trusted: options.trusted,
      log: { info: (m) => logLines.push(m), warn: (m) => logLines.push(m) },
      ...(options.userHooksDir ? { userHooksDir: options.userHooksDir } : {}),
    });
    const hooks = await engine.hooks();
    const host = makeHost(engine, logLines, store, (hook) => hooks.options.get(hook) ?? {});
    const protectedDir = runtimeDir(project.gsdDir);
    const cwd = payload.cwd ?? project.root;
    const provider = new CompositeHooksProvider(
      [
        ...hooks.providers,
        new DefaultHooksProvider({
          describeProject: () => describeProject(host),
          // Real paths on both sides: `.gsd` (or a folder on the way) may be a symlink.
          isProtectedPath: (p) => isProtectedRuntimePath(protectedDir, cwd, p),
        }),
      ],
      { timeoutMs: options.timeoutMs ?? 20_000, log: (m) => logLines.push(m) },
    );
    const ctx: HookContext = {
      sessionId: payload.sessionId,
      root: project.root,
      cwd,
      timestamp: payload.timestamp,
      host,
      ...(payload.transcriptPath ? { transcriptPath: payload.transcriptPath } : {}),
      ...('agentType' in payload.input && payload.input.agentType ? { agentType: payload.input.agentType } : {}),
    };
    const answer = await call(provider, payload, ctx);
    let output = formatAnswer(payload.event, answer as Record<string, unknown> | null, running.dialect);
    // A hook that failed or overran its budget on a tool call (the composite skips it) leaves the call unjudged.
    const unjudged = payload.event === 'PreToolUse' && !output && logLines.some((l) => /\.onPreToolUse (failed|took longer)/.test(l));
    if (unjudged) output = failClosedAnswer(payload.event, project.gsdDir, running.dialect, 'a hook failed on it');
    entry.answer = summarize(output);
    // Only an answer that wrote nothing and came from our own hooks alone (user hook code may read
    // anything) is given again while the files it read are unchanged.
    if (key && recording && !unjudged && !recording.uncacheable() && hooks.loaded.every((h) => h.kind === 'builtin')) {
      const gsd = project.gsdDir;
      storeAnswer(gsd, key, [...recording.paths, path.join(gsd, 'gsd.db'), path.join(gsd, 'gsd.db-wal'), path.join(root, GITHUB_HOOKS_FILE)], output, entry.answer);
    }
    return { event: payload.event, host: running, output, warnings };
  } catch (error) {
    entry.answer = 'error';
    entry.error = error instanceof Error ? error.message : String(error);
    const output = failClosedAnswer(payload.event, project.gsdDir, running.dialect, 'the bridge failed on it');
    if (output) entry.answer = summarize(output);
    return { event: payload.event, host: running, output, error: entry.error, warnings };
  } finally {
    entry.ms = Date.now() - started;
    if (logLines.length) entry.notes = logLines.slice(0, 10);
    const refused = appendHookLog(project.gsdDir, entry);
    if (refused) warnings.push(refused);
  }
}

const folded = (p: string): string => p.normalize('NFC').toLowerCase();

/** The project at or above `dir`, or null (also when it cannot be read). */
function projectAt(dir: string): GsdProject | null {
  try {
    return locateProject(dir);
  } catch {
    return null;
  }
}

/** The real `.gsd` of the project at or above `dir`, or null. */
function gsdDirAt(dir: string): string | null {
  return projectAt(dir)?.gsdDir ?? null;
}

/** Whether an edit tool's path lands in our runtime records, compared as real paths. */
export function isProtectedRuntimePath(protectedDir: string, cwd: string, p: string): boolean {
  try {
    const real = realPathOf(path.resolve(cwd, p));
    const dir = realPathOf(protectedDir);
    // On a case-insensitive file system (macOS, Windows, a FAT or exFAT drive) `.GSD/GSD-Review-Loop/x`
    // is our record under another spelling, and a realpath on Linux keeps the spelling it was given.
    // So the paths are also compared case-folded: every spelling is kept out (on a case-sensitive
    // one this also keeps out a folder differing from ours by case alone, which is no loss).
    return isWithin(dir, real) || isWithin(folded(dir), folded(real));
  } catch {
    // A path we cannot resolve (a link loop) is not one we let an agent edit blindly.
    return true;
  }
}

function summarize(output: Record<string, unknown> | null): string {
  if (!output) return 'none';
  const specific = output.hookSpecificOutput as Record<string, unknown> | undefined;
  if (specific?.permissionDecision) return `${specific.permissionDecision}${specific.permissionDecisionReason ? `: ${String(specific.permissionDecisionReason).slice(0, 120)}` : ''}`;
  if (output.decision === 'block') return `block: ${String(output.reason ?? '').split('\n')[0].slice(0, 120)}`;
  if (specific?.additionalContext) return 'context';
  if (output.systemMessage) return `message: ${String(output.systemMessage).slice(0, 120)}`;
  return 'answered';
}
