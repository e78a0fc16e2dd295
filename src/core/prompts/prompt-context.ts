// What a prompt needs to know about the project beyond its units: which generation of GSD keeps it
// (docs/project-kinds.md). On a GSD-2 database project the agent records progress through GSD's
// workflow MCP tools, and the files GSD renders from its database are never written by hand.
// The kind is an input: whoever derives the state says what kind the project is (the dispatch
// detects it today; the state-source seam carries it later), and prompts only read it here.
import type { ProjectKind } from '../model/types';

export interface PromptContext {
  projectKind: ProjectKind;
  /** Absolute project root: the workflow tools' `projectDir`. */
  root: string;
}

/** The prompt context of a state; a state that names no kind is a markdown project (today's prompts). */
export function promptContextOf(state: { readonly root: string; readonly projectKind?: ProjectKind }): PromptContext {
  return { projectKind: state.projectKind ?? 'markdown', root: state.root };
}

/** Progress is recorded through GSD's `gsd-workflow` MCP server, not by writing GSD's files. */
export function recordsThroughWorkflowTools(context: PromptContext): boolean {
  return context.projectKind === 'gsd2-database';
}
