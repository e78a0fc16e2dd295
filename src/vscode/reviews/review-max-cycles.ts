// The review loop's cycle cap the CodeLens shows ("Cycle N of max"): our settings file or
// PREFERENCES.md (`gsd_hooks`, review-loop's `max_cycles`) win; the VS Code setting is the default for
// projects that do not say.
import { setting } from '../contributions/settings';
import { maxCycles } from '../../core/hooks/builtin/review-loop/review-loop';
import { readHookConfig } from '../../core/hooks/engine/hook-config';
import type { ProjectHandle } from '../workspace/gsd-workspace';

export function reviewMaxCycles(handle: ProjectHandle): number {
  const fallback = setting('review.maxCycles');
  const hook = readHookConfig(handle.engine.files, handle.project.gsdDir, ['review-loop']).hooks.find((h) => h.name === 'review-loop');
  return maxCycles({ max_cycles: fallback, ...(hook?.options ?? {}) });
}
