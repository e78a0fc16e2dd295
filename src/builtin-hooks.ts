// The hooks that ship with GSD Review Loop, by name. The core knows none of them: the CLI and the
// extension hand this list to it.
import type { BuiltinHook } from './core/hook-loader';

export const BUILTIN_HOOKS: readonly BuiltinHook[] = [];
