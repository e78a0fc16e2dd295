// What a tool call does to files, for the review guard: the edit tools of each host and where their
// inputs name the paths (DESIGN.md section 5, checked against VS Code's built-in tools and the
// Claude Code tools reference). A tool that is not listed here is not an edit: the guard never
// denies it (`create_and_run_task`, `read_file`, `Grep`, …).
import { fileURLToPath } from 'node:url';

export type ToolCall =
  /** Writes files; `paths` as the tool names them (empty when the input names none we can read). */
  | { kind: 'edit'; paths: string[] }
  /** Runs a shell command: any file may change, so during a review the user decides. */
  | { kind: 'terminal'; command: string }
  | { kind: 'other' };

type Input = Record<string, unknown>;

const str = (v: unknown): string[] => (typeof v === 'string' && v !== '' ? [v] : []);

/** `replacements[].filePath` of multi_replace_string_in_file. */
function replacementPaths(input: Input): string[] {
  const list = input.replacements;
  if (!Array.isArray(list)) return [];
  return list.flatMap((r) => (r && typeof r === 'object' ? str((r as Input).filePath) : []));
}

/**
 * The files an apply_patch text touches: `*** Add File: p`, `*** Update File: p`, `*** Delete File: p`,
 * `*** Move to: p`. Read as VS Code's parser reads it: lines end at '\n' only and the path is the
 * rest of the line as it is (a '\r' of a CRLF line aside), so a carriage return or U+2028 inside a
 * path (`src/\u2028/../app.ts` writes `src/app.ts`) cannot hide a file from the guard, and
 * `review.md ` is another file than `review.md`.
 */
export function patchPaths(patch: unknown): string[] {
  if (typeof patch !== 'string') return [];
  const out: string[] = [];
  for (const raw of patch.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const m = /^\*\*\* (?:Add File|Update File|Delete File|Move to): ([^\n]+)$/.exec(line);
    if (m) out.push(m[1]);
  }
  return out;
}

const EDIT_TOOLS: Record<string, (input: Input) => string[]> = {
  // VS Code's built-in agent tools
  create_file: (i) => str(i.filePath),
  replace_string_in_file: (i) => str(i.filePath),
  insert_edit_into_file: (i) => str(i.filePath),
  edit_notebook_file: (i) => str(i.filePath),
  multi_replace_string_in_file: replacementPaths,
  create_directory: (i) => str(i.dirPath),
  apply_patch: (i) => patchPaths(i.input),
  // the tool set name VS Code's hooks documentation uses in its examples
  editFiles: (i) => (Array.isArray(i.files) ? i.files.filter((f): f is string => typeof f === 'string') : []),
  // Claude Code
  Write: (i) => str(i.file_path),
  Edit: (i) => str(i.file_path),
  MultiEdit: (i) => str(i.file_path),
  NotebookEdit: (i) => str(i.notebook_path),
};

const TERMINAL_TOOLS: Record<string, (input: Input) => string> = {
  run_in_terminal: (i) => (typeof i.command === 'string' ? i.command : ''),
  Bash: (i) => (typeof i.command === 'string' ? i.command : ''),
};

/** Claude Code matcher for the tools the guard looks at: the others start no process. */
export const CLAUDE_GUARDED_TOOLS = 'Write|Edit|MultiEdit|NotebookEdit|Bash';

export function classifyToolCall(toolName: string, toolInput: Input): ToolCall {
  if (Object.hasOwn(EDIT_TOOLS, toolName)) return { kind: 'edit', paths: EDIT_TOOLS[toolName](toolInput).map(plainPath) };
  if (Object.hasOwn(TERMINAL_TOOLS, toolName)) return { kind: 'terminal', command: TERMINAL_TOOLS[toolName](toolInput) };
  return { kind: 'other' };
}

/** VS Code tools may name a file by `file://` URI. */
function plainPath(p: string): string {
  if (!p.startsWith('file://')) return p;
  try {
    return fileURLToPath(p);
  } catch {
    return p;
  }
}
