// `gsd-review state`: the derived state, lazily read by default (what the active unit needs);
// `--full` reads every slice, as the review panel does.
import { deriveState, deriveStateLazy, freshPartSource, NoProjectError } from '../core/state/derive-state';
import { locateProject } from '../core/state/locate-project';
import { ProjectFiles } from '../core/state/project-files';
import { NodeGsdStore } from '../core/files/gsd-store';
import type { GSDState } from '../core/model/types';
import { stateJson } from './state-json';

export interface StateOptions {
  root: string;
  json: boolean;
  full: boolean;
}

export function loadState(root: string, full: boolean): GSDState {
  if (!full) return deriveStateLazy(root).state;
  const project = locateProject(root);
  if (!project) throw new NoProjectError(root);
  return deriveState(project, freshPartSource(new ProjectFiles(new NodeGsdStore())));
}

function describe(state: GSDState): string {
  const ref = (r: { id: string; title: string } | null) => (r ? `${r.id} ${r.title}` : '-');
  const lines = [
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
  process.stdout.write(options.json ? JSON.stringify(stateJson(state, options.full), null, 2) + '\n' : describe(state));
  return 0;
}
