// The hooks that ship with GSD Review Loop, by name. The core knows none of them: the CLI and the
// extension hand this list to it.
import type { BuiltinHook } from './core/hooks/api';
import { pendingActionsHook } from './core/hooks/builtin/pending-actions/pending-actions';
import { reviewLoopHook } from './core/hooks/builtin/review-loop/review-loop';

export const BUILTIN_HOOKS: readonly BuiltinHook[] = [reviewLoopHook, pendingActionsHook];
