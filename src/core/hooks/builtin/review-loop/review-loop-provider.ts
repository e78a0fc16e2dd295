// The review loop's lifecycle hooks, for agents driven through VS Code or Claude Code hooks:
// Stop keeps the agent working while the loop needs a review or a fix (within max_cycles), the
// reviewer subagent gets its prompt on SubagentStart and its review processed on SubagentStop,
// PreToolUse keeps a reviewer from editing anything but its review, and PreCompact saves GSD's
// CONTINUE file with the loop's state.
import * as path from 'node:path';
import {
  activeUnits,
  classifyToolCall,
  confine,
  CONTINUE_SECTIONS,
  findUnit,
  readCodeReview,
  realPathOf,
  writeWithFrontmatter,
  type DispatchRecord,
  type GSDState,
  type HookContext,
  type HooksProvider,
  type LifecycleHost,
  type PreCompactInput,
  type PreCompactOutput,
  type PreToolUseInput,
  type PreToolUseOutput,
  type StopInput,
  type StopOutput,
  type SubagentStartInput,
  type SubagentStartOutput,
  type SubagentStopInput,
} from '../../api';
import { REVIEW_LOOP, taskState } from './review-loop-state';

export const DEFAULT_REVIEWER_AGENT = 'gsd-reviewer';
const STOP_GUARD = 'stopGuard';
/** The unit our last Stop block handed to an agent, and in which session. */
const STOP_DELIVERY = 'stopDelivery';

/** Our reviewer at work on a review-task (SubagentStart to SubagentStop): Claude Code may run it in the background. */
const REVIEWER_RUNNING = 'reviewerRunning';
/** A reviewer not heard of for this long is taken as gone (its SubagentStop never came). */
const REVIEWER_STALE_MS = 30 * 60_000;
/** Stop blocks per unit (any turns): "never a third time for the same unit". */
const MAX_STOP_BLOCKS = 2;

interface ReviewerRunning {
  agentId: string;
  unitId: string;
  dispatchedAt: string;
  startedAt: number;
}

interface StopGuard {
  key: string;
  count: number;
  sessionId?: string;
}

interface StopDelivery {
  unitType: string;
  unitId: string;
  dispatchedAt: string;
  sessionId: string;
}

const sameUnit = (a: DispatchRecord, b: StopDelivery | null | undefined): boolean =>
  !!b && a.unitType === b.unitType && a.unitId === b.unitId && a.dispatchedAt === b.dispatchedAt;

function ours(unit: DispatchRecord | null): unit is DispatchRecord {
  return unit !== null && unit.source === REVIEW_LOOP && (unit.unitType === 'review-task' || unit.unitType === 'fix-task');
}

/**
 * The review file a review-task asked for, relative to the project root (from the dispatch). The
 * record is a file in the repository, which may plant one: only a review file inside `.gsd`
 * (`.gsd/…/T01-CODE-REVIEW.md`, no `..`) counts, or the guard would pre-approve (a PreToolUse
 * "allow" skips the user's permission prompt) a write of any file the record names.
 */
function reviewPathOf(unit: DispatchRecord): string | null {
  const p = unit.data?.reviewPath;
  if (typeof p !== 'string' || !/^\.gsd[\\/]/.test(p)) return null;
  const parts = p.split(/[\\/]/);
  return parts.includes('..') || !/^T\d+-CODE-REVIEW\.md$/i.test(parts[parts.length - 1]) ? null : p;
}

/** The review file relative to `.gsd`; the prompt names it as `.gsd/…` (`.gsd` may be a symlink). */
function reviewInGsd(rel: string): string {
  return rel.replace(/^\.gsd[\\/]/, '');
}

/** The reviewer has written the review this unit asked for (this cycle, after the dispatch). */
function reviewWritten(host: LifecycleHost, unit: DispatchRecord): boolean {
  const rel = reviewPathOf(unit);
  if (!rel) return false;
  const text = host.readGsdFile(reviewInGsd(rel));
  if (!text) return false;
  const review = readCodeReview(text, rel);
  return review.wellFormed && review.cycle === unit.data?.cycle;
}

export class ReviewLoopProvider implements HooksProvider {
  readonly name = REVIEW_LOOP;

  constructor(private readonly options: Readonly<Record<string, unknown>>) {}

  private reviewerAgent(): string {
    return typeof this.options.reviewer_agent === 'string' ? this.options.reviewer_agent : DEFAULT_REVIEWER_AGENT;
  }

  private isReviewer(agentType: string): boolean {
    const want = this.reviewerAgent().toLowerCase();
    const got = agentType.toLowerCase();
    // Claude Code plugins namespace their agents (`plugin:agent`).
    return got === want || got.endsWith(`:${want}`);
  }

  /**
   * Completes our unit when its work is evidently done: a review once written; a fix when the agent
   * that had it stops. A fix our own Stop block handed over counts as done only when that agent went
   * on working because of the block (`stop_hook_active`, same session): a host that let it stop
   * anyway, or a stop in another chat, leaves the fix recorded as dispatched, to be offered again.
   */
  private async settle(host: LifecycleHost, input: StopInput, ctx: HookContext): Promise<void> {
    const unit = host.currentUnit();
    if (!ours(unit)) return;
    if (unit.unitType === 'review-task') {
      if (reviewWritten(host, unit)) await host.complete();
      return;
    }
    const delivery = host.runtimeGet<StopDelivery | null>(STOP_DELIVERY);
    if (sameUnit(unit, delivery) && (!input.stopHookActive || delivery!.sessionId !== ctx.sessionId)) return;
    await host.complete();
  }

  async onStop(input: StopInput, ctx: HookContext): Promise<StopOutput | null> {
    const host = ctx.host;
    if (!host) return null;
    await this.settle(host, input, ctx);
    const preview = await host.preview();
    const d = preview.decision;
    if (!d || d.source !== REVIEW_LOOP) {
      // Written only when there is something to clear: a stop with nothing to do writes nothing.
      if (host.runtimeGet<StopGuard | null>(STOP_GUARD)) host.runtimeSet(STOP_GUARD, null);
      return null;
    }
    // Our reviewer still works on this very review (in the background): the main agent may stop; the
    // reviewer's SubagentStop processes the review.
    const current0 = host.currentUnit();
    if (d.unitType === 'review-task' && ours(current0) && current0.unitType === 'review-task' && this.reviewerAtWork(host, current0)) return null;
    const key = `${d.unitType} ${d.unitId} cycle ${String(d.data?.cycle ?? '')}`;
    const guard = host.runtimeGet<StopGuard | null>(STOP_GUARD);
    // Per session: another chat that stops on the same unit is offered it afresh.
    const session = ctx.sessionId;
    // Counted across turns: a turn the host starts on its own (a background agent's completion
    // notice, stop_hook_active false) must not reset the bound.
    // Held at one past the bound: past it the state no longer changes, so the same answer can come
    // from the answer cache instead of a full bridge on every later Stop.
    const count = guard?.key === key && guard.sessionId === session ? Math.min(guard.count + 1, MAX_STOP_BLOCKS + 1) : 1;
    host.runtimeSet(STOP_GUARD, { key, count, sessionId: session });
    if (count > MAX_STOP_BLOCKS) {
      // The agent was already kept working twice for this very unit without progress: let it stop.
      return { decision: 'allow', systemMessage: `GSD review loop: ${key} is still open; not keeping the agent working a third time. Run GSD: Next Unit when ready.` };
    }
    // The state advances here, in the answer that keeps the agent working (formatted for the host
    // that runs us, so it is honoured); a unit already in flight is offered again, not re-dispatched.
    const current = host.currentUnit();
    const unit = current && current.unitType === d.unitType && current.unitId === d.unitId ? current : (await host.dispatch()).decision ?? d;
    const recorded = host.currentUnit();
    if (recorded && recorded.unitType === unit.unitType && recorded.unitId === unit.unitId) {
      host.runtimeSet(STOP_DELIVERY, { unitType: recorded.unitType, unitId: recorded.unitId, dispatchedAt: recorded.dispatchedAt, sessionId: ctx.sessionId } satisfies StopDelivery);
    }
    const how = unit.unitType === 'review-task'
      ? `Review it now (or hand it to the ${this.reviewerAgent()} agent), writing only the review file.`
      : 'Fix the open issues now, then stop; the next review cycle follows.';
    return { decision: 'block', reason: `GSD review loop: ${unit.reason ?? `${unit.unitType} ${unit.unitId}`}. ${how}\n\n${unit.prompt}` };
  }

  /**
   * The main agent is starting our reviewer (its PreToolUse of `task` / `Agent` / `runSubagent`): from
   * here, not only from SubagentStart, the review counts as being done, so a Stop that comes before the
   * reviewer's SubagentStart (a background start) is not handed the same review a second time.
   */
  private noteReviewerStarting(host: LifecycleHost): void {
    const unit = host.currentUnit();
    if (!ours(unit) || unit.unitType !== 'review-task' || this.reviewerAtWork(host, unit)) return;
    host.runtimeSet(REVIEWER_RUNNING, { agentId: '', unitId: unit.unitId, dispatchedAt: unit.dispatchedAt, startedAt: Date.now() } satisfies ReviewerRunning);
  }

  /**
   * Our reviewer with no review of ours in progress (a second reviewer started late, after the review
   * moved the unit on to its fix): it edits nothing, and a command is put to the user.
   */
  private holdIdleReviewer(input: PreToolUseInput, kind: 'edit' | 'terminal' | 'unknown-edit', unit: DispatchRecord | null): PreToolUseOutput {
    const now = ours(unit) ? `${unit.unitType} ${unit.unitId} is in progress` : 'no review is in progress';
    const reason = `GSD review loop: the ${this.reviewerAgent()} agent only writes the review of a review cycle in progress, and ${now}; ${input.toolName} is not the reviewer's to run.`;
    return { permissionDecision: kind === 'edit' ? 'deny' : 'ask', reason };
  }

  /** Whether our reviewer, started on this review-task, has not stopped yet. */
  private reviewerAtWork(host: LifecycleHost, unit: DispatchRecord): boolean {
    const r = host.runtimeGet<ReviewerRunning | null>(REVIEWER_RUNNING);
    return !!r && r.unitId === unit.unitId && r.dispatchedAt === unit.dispatchedAt && typeof r.startedAt === 'number' && Date.now() - r.startedAt < REVIEWER_STALE_MS;
  }

  async onSubagentStart(input: SubagentStartInput, ctx: HookContext): Promise<SubagentStartOutput | null> {
    const host = ctx.host;
    // VS Code names a subagent by the agentName the model gave, or `default`: only our reviewer gets
    // the review prompt (an explore or default subagent must not be handed a review).
    if (!host || !this.isReviewer(input.agentType)) return null;
    let unit = host.currentUnit();
    if (!ours(unit) || unit.unitType !== 'review-task') {
      const preview = await host.preview();
      if (preview.decision?.source !== REVIEW_LOOP || preview.decision.unitType !== 'review-task') return null;
      unit = (await host.dispatch()).decision as DispatchRecord | null;
      if (!unit) return null;
    }
    const recorded = host.currentUnit();
    if (recorded && recorded.unitType === 'review-task' && recorded.unitId === unit.unitId) {
      host.runtimeSet(REVIEWER_RUNNING, { agentId: input.agentId, unitId: recorded.unitId, dispatchedAt: recorded.dispatchedAt, startedAt: Date.now() } satisfies ReviewerRunning);
    }
    return { additionalContext: unit.prompt };
  }

  /**
   * Whatever its name (VS Code may say `default`), a subagent that stops after the review of this
   * cycle was written has done the review. Our reviewer stopping without it is kept working once.
   */
  async onSubagentStop(input: SubagentStopInput, ctx: HookContext): Promise<StopOutput | null> {
    const host = ctx.host;
    if (!host) return null;
    const running = host.runtimeGet<ReviewerRunning | null>(REVIEWER_RUNNING);
    // The same agent id stopping (VS Code may name it `default` here), or our reviewer by name.
    const sameAgent = !!running && !!running.agentId && running.agentId === input.agentId;
    if (running && (sameAgent || (this.isReviewer(input.agentType) && (!running.agentId || !input.agentId)))) host.runtimeSet(REVIEWER_RUNNING, null);
    const unit = host.currentUnit();
    if (!ours(unit) || unit.unitType !== 'review-task') return null;
    if (!reviewWritten(host, unit)) {
      if (!this.isReviewer(input.agentType)) return null;
      const file = reviewPathOf(unit) ?? 'the review file';
      if (!input.stopHookActive) {
        return { decision: 'block', reason: `GSD review loop: write ${file} for review cycle ${String(unit.data?.cycle)} of ${unit.unitId} before stopping, in the format your instructions give.` };
      }
      return { decision: 'allow', systemMessage: `GSD review loop: the reviewer stopped without writing ${file} for cycle ${String(unit.data?.cycle)}.` };
    }
    const done = await host.complete();
    return done ? { decision: 'allow', systemMessage: `GSD review loop: processed the review of ${unit.unitId}, cycle ${String(unit.data?.cycle)}.` } : null;
  }

  /**
   * During a review the reviewer writes its review file and nothing else: an edit of another file is
   * denied, the review file is allowed through any edit tool, a terminal command is put to the user
   * (it may change anything), and a tool that edits nothing is never stopped. Both sides are
   * compared as real paths (`.gsd` is often a symlink).
   */
  async onPreToolUse(input: PreToolUseInput, ctx: HookContext): Promise<PreToolUseOutput | null> {
    const host = ctx.host;
    if (!host) return null;
    const call = classifyToolCall(input.toolName, input.toolInput);
    if (call.kind === 'subagent') {
      if (this.isReviewer(call.agent)) this.noteReviewerStarting(host);
      return null;
    }
    if (call.kind === 'other') return null;
    const unit = host.currentUnit();
    const byReviewer = !!input.agentType && this.isReviewer(input.agentType);
    const rel = ours(unit) && unit.unitType === 'review-task' ? reviewPathOf(unit) : null;
    if (!ours(unit) || unit.unitType !== 'review-task' || !rel) return byReviewer ? this.holdIdleReviewer(input, call.kind, unit) : null;
    const cycle = String(unit.data?.cycle);
    if (call.kind === 'unknown-edit') {
      // A tool the guard does not know, that may change files: fail closed, the user decides.
      return {
        permissionDecision: 'ask',
        reason: `GSD review loop: review cycle ${cycle} of ${unit.unitId} is in progress and the reviewer only writes ${rel}. ${input.toolName} is a tool the guard does not know; allow it only if it changes no other file.`,
      };
    }
    if (call.kind === 'terminal') {
      return {
        permissionDecision: 'ask',
        reason: `GSD review loop: review cycle ${cycle} of ${unit.unitId} is in progress and the reviewer only writes ${rel}. Allow this command only if it changes no other file: ${call.command.slice(0, 300)}`,
      };
    }
    // A path that cannot be resolved (a link loop) is never the review file: it is denied like any other.
    const real = (p: string): string | null => {
      try {
        return realPathOf(p);
      } catch {
        return null;
      }
    };
    // Confined: a review file whose real path leaves the real `.gsd` (a planted link) is no review file.
    let confined: string | null;
    try {
      confined = confine(host.gsdDir, reviewInGsd(rel));
    } catch {
      confined = null;
    }
    const review = new Set(confined === null ? [] : [confined]);
    const outside = call.paths.find((p) => {
      const r = real(path.resolve(ctx.cwd, p));
      return r === null || !review.has(r);
    });
    if (!outside && call.paths.length > 0) return { permissionDecision: 'allow' };
    return {
      permissionDecision: 'deny',
      reason: `GSD review loop: this is review cycle ${cycle} of ${unit.unitId}. The reviewer only writes ${rel}; ${outside ?? `this ${input.toolName} call`} is for the fix cycle that follows.`,
    };
  }

  async onPreCompact(input: PreCompactInput, ctx: HookContext): Promise<PreCompactOutput | null> {
    const host = ctx.host;
    if (!host) return null;
    const state = host.state();
    const { milestone, slice } = activeUnits(state);
    if (!milestone || !slice) return null;
    const sliceDir = slice.dir ?? path.join(milestone.dir, 'slices', slice.id);
    const rel = path.relative(host.gsdDir, path.join(sliceDir, `${slice.id}-CONTINUE.md`)).split(path.sep).join('/');
    if (slice.continueFile || host.readGsdFile(rel) !== null) {
      return { systemMessage: `GSD: ${rel} already exists; left as it is.` };
    }
    const next = (await host.preview()).decision;
    const text = continueFile(state, milestone.id, slice.id, host, input, next ? `${next.unitType} ${next.unitId}: ${next.reason ?? next.prompt.split('\n')[0]}` : state.nextAction);
    if (!host.createGsdFile(rel, text)) return { systemMessage: `GSD: could not write ${rel}.` };
    return { systemMessage: `GSD: saved the slice's state (review loop included) to .gsd/${rel} before compaction.`, savedFiles: [rel] };
  }
}

/** GSD's CONTINUE shape (docs/project-kinds.md), with the review loop's state under Context. */
function continueFile(state: GSDState, milestoneId: string, sliceId: string, host: LifecycleHost, input: PreCompactInput, nextUnit: string): string {
  const slice = findUnit(state, milestoneId, sliceId).slice!;
  const done = slice.tasks.filter((t) => t.done);
  const remaining = slice.tasks.filter((t) => !t.done);
  const unit = host.currentUnit();
  const loop = slice.tasks
    .map((t) => ({ t, st: taskState(t.extensions[REVIEW_LOOP]) }))
    .filter(({ st }) => st.activeReview || st.outcome)
    .map(({ t, st }) =>
      st.activeReview
        ? `- ${t.id}: review cycle ${st.activeReview.cycle}, ${st.activeReview.status === 'fixing' ? 'fixing the open issues' : 'waiting for the review'}${st.activeReview.lastReviewPath ? ` (last review .gsd/${st.activeReview.lastReviewPath})` : ''}`
        : `- ${t.id}: review ${st.outcome!.passed ? 'passed' : 'stopped at the cap'} after ${st.outcome!.cycles} cycle(s)`,
    );
  const pending = state.pendingActions.filter((a) => a.milestoneId === milestoneId && a.sliceId === sliceId).map((a) => `- ${a.taskId}: ${a.text}`);
  const sections: Record<(typeof CONTINUE_SECTIONS)[number], string> = {
    'Completed Work': done.map((t) => `- ${t.id}: ${t.title}`).join('\n') || 'None yet.',
    'Remaining Work': remaining.map((t) => `- ${t.id}: ${t.title}`).join('\n') || 'All tasks are done; the slice needs its summary.',
    'Decisions Made': 'See the task summaries (key_decisions) of the completed tasks.',
    Context: [
      `Compaction: ${input.trigger}.`,
      unit ? `In flight: ${unit.unitType} ${unit.unitId} (dispatched by ${unit.source} at ${unit.dispatchedAt}).` : 'No unit in flight.',
      loop.length ? `Review loop:\n${loop.join('\n')}` : 'Review loop: no review in progress.',
      pending.length ? `Pending actions:\n${pending.join('\n')}` : '',
    ].filter(Boolean).join('\n\n'),
    'Next Action': unit ? `Finish ${unit.unitType} ${unit.unitId}: ${unit.reason ?? ''}`.trim() : nextUnit,
  };
  const task = unit?.unitId.split('/')[2] ?? state.activeTask?.id ?? '';
  const body = [`# ${sliceId}: continue after compaction`, '', ...CONTINUE_SECTIONS.flatMap((name) => [`## ${name}`, '', sections[name], ''])].join('\n');
  // GSD's keys, values as strings; a blank line between the frontmatter and the title, as GSD writes.
  return writeWithFrontmatter(`\n${body}`, { milestone: milestoneId, slice: sliceId, task, status: 'compacted', saved_at: new Date().toISOString() });
}
