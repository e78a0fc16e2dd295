// Small re-implementations of how each agent host reads a hook command's result, written from the
// hosts' own code and documents (not from our bridge), so a contract test shows what the host does
// with our answer.

export interface CommandRun {
  status: number;
  stdout: string;
  stderr: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

// ---------------------------------------------------------------------------------------------
// VS Code, Local agent: microsoft/vscode-copilot-chat
//   src/platform/chat/node/hookExecutor.ts        exit 0 → stdout parsed as JSON (else kept as text);
//                                                 exit 2 → blocking error (stderr); other → warning
//   src/extension/chat/vscode-node/chatHookService.ts  _toHookResult: a top-level `hookEventName` that
//                                                 does not match drops the result; a mismatching
//                                                 `hookSpecificOutput.hookEventName` strips that object
//                                                 (a Stop answer is accepted for SubagentStop);
//                                                 `continue`, `stopReason`, `systemMessage` are common
//                                                 fields; executePreToolUseHook: deny > ask > allow
//   src/extension/intents/node/toolCallingLoop.ts executeStopHook / executeSubagentStopHook: the agent
//                                                 keeps working for `hookSpecificOutput.decision ===
//                                                 'block'` with a reason, or for a blocking error
// ---------------------------------------------------------------------------------------------
export interface VsCodeHookResult {
  kind: 'success' | 'error' | 'warning';
  output: unknown;
  warningMessage?: string;
}

const COMPATIBLE: Record<string, string> = { Stop: 'SubagentStop', SessionStart: 'SubagentStart' };
const compatible = (name: string, hookType: string) => name === hookType || COMPATIBLE[name] === hookType;

export function vscodeHookResult(hookType: string, run: CommandRun): VsCodeHookResult {
  if (run.status === 2) return { kind: 'error', output: run.stderr };
  if (run.status !== 0) return { kind: 'warning', output: undefined, warningMessage: run.stderr };
  let result: unknown = run.stdout;
  if (run.stdout) {
    try {
      result = JSON.parse(run.stdout);
    } catch {
      // kept as text
    }
  }
  if (!isObj(result)) return { kind: 'success', output: result };
  if (typeof result.hookEventName === 'string' && !compatible(result.hookEventName, hookType)) return { kind: 'success', output: undefined };
  const strip = isObj(result.hookSpecificOutput) && typeof result.hookSpecificOutput.hookEventName === 'string' && !compatible(result.hookSpecificOutput.hookEventName, hookType);
  const common = new Set(['continue', 'stopReason', 'systemMessage', ...(strip ? ['hookSpecificOutput'] : [])]);
  const output: Obj = {};
  for (const [k, v] of Object.entries(result)) if (v !== undefined && !common.has(k)) output[k] = v;
  return { kind: 'success', output: Object.keys(output).length ? output : undefined, ...(typeof result.systemMessage === 'string' ? { warningMessage: result.systemMessage } : {}) };
}

/** Stop / SubagentStop: the reasons the agent is kept working for (empty: it stops). */
export function vscodeStopReasons(hookType: 'Stop' | 'SubagentStop', runs: CommandRun[]): string[] {
  const reasons: string[] = [];
  for (const r of runs.map((run) => vscodeHookResult(hookType, run))) {
    if (r.kind === 'error' && typeof r.output === 'string' && r.output) reasons.push(r.output);
    if (r.kind === 'success' && isObj(r.output) && isObj(r.output.hookSpecificOutput)) {
      const s = r.output.hookSpecificOutput;
      if (s.decision === 'block' && typeof s.reason === 'string' && s.reason) reasons.push(s.reason);
    }
  }
  return reasons;
}

const PRIORITY: Record<string, number> = { allow: 1, ask: 2, deny: 3 };

/** PreToolUse: the most restrictive decision of all hooks, or undefined (the tool runs as usual). */
export function vscodePermission(runs: CommandRun[]): { decision?: 'allow' | 'ask' | 'deny'; reason?: string } {
  let decision: 'allow' | 'ask' | 'deny' | undefined;
  let reason: string | undefined;
  for (const r of runs.map((run) => vscodeHookResult('PreToolUse', run))) {
    if (r.kind === 'error') {
      decision = 'deny';
      reason = String(r.output);
      continue;
    }
    if (r.kind !== 'success' || !isObj(r.output) || !isObj(r.output.hookSpecificOutput)) continue;
    const d = r.output.hookSpecificOutput.permissionDecision;
    if (typeof d === 'string' && d in PRIORITY && (!decision || PRIORITY[d] > PRIORITY[decision])) {
      decision = d as 'allow' | 'ask' | 'deny';
      reason = r.output.hookSpecificOutput.permissionDecisionReason as string | undefined;
    }
  }
  return { ...(decision ? { decision } : {}), ...(reason ? { reason } : {}) };
}

/** SessionStart / SubagentStart / UserPromptSubmit context the model gets. */
export function vscodeContext(hookType: string, run: CommandRun): string | undefined {
  const r = vscodeHookResult(hookType, run);
  if (r.kind !== 'success' || !isObj(r.output)) return undefined;
  const s = r.output.hookSpecificOutput;
  return isObj(s) && typeof s.additionalContext === 'string' ? s.additionalContext : undefined;
}

// ---------------------------------------------------------------------------------------------
// Copilot CLI (docs.github.com/en/copilot/reference/copilot-cli-reference/cli-hooks-reference):
// `agentStop` / `subagentStop` (PascalCase `Stop` / `SubagentStop` in the VS Code compatible
// format) "can block and force continuation" with `{"decision": "block", "reason": …}` at the top
// level of stdout (exit 0); the reason becomes the agent's next prompt.
// ---------------------------------------------------------------------------------------------
export function copilotCliStopReason(run: CommandRun): string | null {
  if (run.status !== 0 || !run.stdout) return null;
  try {
    const out = JSON.parse(run.stdout) as unknown;
    return isObj(out) && out.decision === 'block' && typeof out.reason === 'string' && out.reason ? out.reason : null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// Claude Code (code.claude.com/docs/en/hooks): exit 0 → stdout JSON; Stop / SubagentStop decision
// control is top-level `decision: "block"` + `reason` (the reason tells Claude how to go on);
// `hookSpecificOutput` is defined for PreToolUse, UserPromptSubmit, SessionStart, SubagentStart…,
// and some versions validate the output and refuse a Stop answer that carries it (the whole answer
// is then ignored: modelled by `strict`). PreToolUse: `hookSpecificOutput.permissionDecision`
// allow | deny | ask with `permissionDecisionReason`.
// ---------------------------------------------------------------------------------------------
export function claudeParse(run: CommandRun): Obj | null {
  if (run.status !== 0 || !run.stdout.trim()) return null;
  try {
    const out = JSON.parse(run.stdout) as unknown;
    return isObj(out) ? out : null;
  } catch {
    return null;
  }
}

export function claudeStopReason(run: CommandRun, strict = true): string | null {
  const out = claudeParse(run);
  if (!out) return null;
  if (strict && 'hookSpecificOutput' in out) return null;
  return out.decision === 'block' && typeof out.reason === 'string' && out.reason ? out.reason : null;
}

export function claudePermission(run: CommandRun): { decision?: string; reason?: string } {
  const out = claudeParse(run);
  const s = out && isObj(out.hookSpecificOutput) && out.hookSpecificOutput.hookEventName === 'PreToolUse' ? out.hookSpecificOutput : null;
  return s ? { decision: s.permissionDecision as string, reason: s.permissionDecisionReason as string } : {};
}

export function claudeContext(hookEventName: string, run: CommandRun): string | undefined {
  const out = claudeParse(run);
  const s = out && isObj(out.hookSpecificOutput) && out.hookSpecificOutput.hookEventName === hookEventName ? out.hookSpecificOutput : null;
  return s && typeof s.additionalContext === 'string' ? s.additionalContext : undefined;
}

// ---------------------------------------------------------------------------------------------
// Copilot CLI 1.0.102 (docs/agent-hooks.md, from its shipped code and run live): context answers
// (sessionStart, userPromptSubmitted, subagentStart) are read from a top-level `additionalContext`
// only (a nested `hookSpecificOutput.additionalContext` is dropped); PreToolUse honours the nested
// `hookSpecificOutput.permissionDecision` (`ask` in `-p` is a denial).
// ---------------------------------------------------------------------------------------------
export function copilotCliContext(run: CommandRun): string | undefined {
  const out = claudeParse(run);
  return out && typeof out.additionalContext === 'string' && out.additionalContext ? out.additionalContext : undefined;
}

export function copilotCliPermission(run: CommandRun): { decision?: string; reason?: string } {
  const out = claudeParse(run);
  const s = out && isObj(out.hookSpecificOutput) ? out.hookSpecificOutput : null;
  return s && typeof s.permissionDecision === 'string' ? { decision: s.permissionDecision, reason: s.permissionDecisionReason as string } : {};
}

/** Claude Code PreCompact: whatever the hook prints is appended to the compaction instructions. */
export function claudeCompactionAddition(run: CommandRun): string {
  return run.status === 0 ? run.stdout : '';
}
