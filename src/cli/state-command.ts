// `gsd-review state`: the derived state, lazily read by default (what the active unit needs);
// `--full` reads every slice, as the review panel does. The source (markdown, GSD-2's database, the
// successor's layout) is the project engine's choice, as in the extension.
import { writeAnswer } from './process-exit';
import { openProject } from '../core/project/open-project';
import type { ProjectState } from '../core/project/state-source';
import { stateJson } from './state-json';

export interface StateOptions {
  root: string;
  json: boolean;
  full: boolean;
}

export function loadState(root: string, full: boolean): ProjectState {
  return openProject(root, { reading: full ? 'full' : 'lazy' }).state();
}

function describe(state: ProjectState): string {
  const ref = (r: { id: string; title: string } | null) => (r ? `${r.id} ${r.title}` : '-');
  const lines = [
    `source:    ${state.source.label}`,
    `phase:     ${state.phase}`,
    `milestone: ${ref(state.activeMilestone)}`,
    `slice:     ${ref(state.activeSlice)}`,
    `task:      ${ref(state.activeTask)}`,
    // The default dispatch only: hooks (the review loop) may decide another unit, which `next` prints.
    `default:   ${state.nextAction} (GSD's default dispatch; \`gsd-review next\` includes the hooks)`,
    `progress:  milestones ${state.progress.milestones.done}/${state.progress.milestones.total}, slices ${state.progress.slices.done}/${state.progress.slices.total}, tasks ${state.progress.tasks.done}/${state.progress.tasks.total}`,
  ];
  for (const b of state.blockers) lines.push(`blocker:   ${b}`);
  for (const d of state.diagnostics) lines.push(`${d.severity}: ${d.file}${d.line ? `:${d.line}` : ''}: ${d.message}`);
  return lines.join('\n') + '\n';
}

export function runStateCommand(options: StateOptions): number {
  const state = loadState(options.root, options.full);
  writeAnswer(options.json ? JSON.stringify(stateJson(state, options.full), null, 2) + '\n' : describe(state));
  return 0;
}
