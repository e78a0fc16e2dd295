// The front door for hook authors: everything a hook needs, from one module. The built-in hooks
// (hooks/builtin/) import only this (ESLint enforces it), and the build ships its declarations as
// dist/gsd-hooks.d.ts for hooks written elsewhere. Nothing here is new code: it names the parts of the
// engine, the lifecycle providers and the state that a hook may rely on.
//
// Typed hook state, by declaration merging on this module:
//   declare module '<path to this module or dist/gsd-hooks>' {
//     interface GSDUnitExtensions { 'my-hook': MyUnitState }      // ctx.store.get / set, per unit
//     interface GSDStateExtensions { 'my-hook': MyProjectView }   // state.extensions['my-hook']
//   }
// Then `api.registerHook('my-hook', middleware, { summarize })` checks the middleware's store and
// the summary against those types: storing a number where MyUnitState belongs does not compile.

// ── Registration and user hook modules ────────────────────────────────────────────────────────────
export type { BuiltinHook, HookApi, HookModule, HookRegister } from './loading/hook-module';

// ── Dispatch middleware ─────────────────────────────────────────────────────────────────────────
export type { ProjectStateOf, RegisterOptions } from './engine/hook-registry';
export type { DeepReadonly, DispatchDecision, GSDMiddleware, HookDiagnostic, HookLog, MiddlewareContext, UnitDecision, UnitResult } from './engine/middleware-types';
export type { GSDUnitExtensions, HookStateHandle, UnitStateOf } from './engine/hook-state';

// ── Lifecycle (agent events) ────────────────────────────────────────────────────────────────────
export type {
  ErrorOccurredInput,
  ErrorOccurredOutput,
  HookContext,
  HooksProvider,
  LifecycleHost,
  PostToolUseInput,
  PostToolUseOutput,
  PreCompactInput,
  PreCompactOutput,
  PreToolUseInput,
  PreToolUseOutput,
  SessionEndInput,
  SessionStartInput,
  SessionStartOutput,
  StopInput,
  StopOutput,
  SubagentStartInput,
  SubagentStartOutput,
  SubagentStopInput,
  UserPromptSubmittedInput,
  UserPromptSubmittedOutput,
} from './lifecycle/hooks-provider';
export type { AfterDispatchOutcome, DispatchOutcome, HooksReport } from '../dispatch/dispatch-outcome';
export type { DispatchRecord } from '../dispatch/dispatch-record';

// ── State ───────────────────────────────────────────────────────────────────────────────────────
export type {
  ActiveRef,
  Diagnostic,
  ExtensionsMap,
  GSDState,
  GSDStateExtensions,
  MilestoneEntry,
  PendingAction,
  Phase,
  ReviewCycle,
  ReviewIssue,
  ReviewVerdict,
  Severity,
  SliceEntry,
  TaskEntry,
  UnitType,
} from '../model/types';

// ── Helpers the built-in hooks use ──────────────────────────────────────────────────────────────
export { activeUnits, findUnit, findUnitById } from '../model/find-unit';
export { defaultDecision, promptPath, replanDecision } from '../dispatch/default-dispatch';
export { parseCodeReview, readCodeReview, reviewPassed, type CodeReview } from '../parse/code-review';
export { render } from '../prompts/templates';
export { promptContextOf, recordsThroughWorkflowTools, type PromptContext } from '../prompts/prompt-context';
export { classifyToolCall, type ToolCall } from './lifecycle/edit-tools';
export { confine, realPathOf } from '../files/confine';
export { CONTINUE_SECTIONS } from '../parse/continue-file';
export { writeWithFrontmatter } from '../parse/gray-matter-frontmatter';
