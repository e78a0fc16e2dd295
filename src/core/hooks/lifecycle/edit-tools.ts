// What a tool call does to files, for the review guard: the tools of each host, what each does, and
// where its input names paths (docs/agent-hooks.md, from each host's shipped tools). This is the one
// table: the guard reads it, and the installers' matchers are generated from it (`guardMatcher`).
//
// - A tool listed as `edit` writes files: the guard checks every path its input names.
// - A `terminal` tool runs a command: any file may change, so during a review the user decides.
// - A `read` tool changes no file of the project: never stopped.
// - A `subagent` tool starts another agent: never stopped, but the review loop notes its reviewer starting.
// - A tool listed nowhere is judged by its name and input: one whose name says it changes something
//   (write, edit, create, rename, run, …) or whose input names a path is `unknown-edit`, and the guard
//   fails closed on it during a review. Any other is `other`.
// Paths are read from every path field any host uses, whatever the tool: Copilot CLI sends Claude
// Code's tool names with its own fields (`Write {path, file_text}`), so a field list per tool would
// miss them.
import { fileURLToPath } from 'node:url';

export type ToolCall =
  /** Writes files; `paths` as the tool names them (empty when the input names none we can read). */
  | { kind: 'edit'; paths: string[] }
  /** Runs a shell command: any file may change, so during a review the user decides. */
  | { kind: 'terminal'; command: string }
  /** A tool we do not know whose name or input says it may change files: during a review the guard fails closed. */
  | { kind: 'unknown-edit'; paths: string[] }
  /** Starts a subagent (`agent`: the custom agent named, '' for none): the review loop marks its reviewer as starting. */
  | { kind: 'subagent'; agent: string }
  | { kind: 'other' };

type Input = Record<string, unknown>;
type Host = 'vscode' | 'claude' | 'copilot-cli';
type Kind = 'edit' | 'terminal' | 'subagent' | 'read';

interface ToolSpec {
  readonly kind: Kind;
  /** The hosts that offer it (for the matchers and the docs). */
  readonly hosts: readonly Host[];
  /** `str_replace_editor` views as well as edits: the sub-commands that change nothing. */
  readonly readOnlyCommands?: readonly string[];
  /** Changes files its input does not name (a rename across the workspace): never the review file alone. */
  readonly unnamedFiles?: true;
}

const V: readonly Host[] = ['vscode'];
const C: readonly Host[] = ['claude'];
const P: readonly Host[] = ['copilot-cli'];
// Copilot CLI sends Claude Code's names for its core tools (docs/agent-hooks.md).
const CP: readonly Host[] = ['claude', 'copilot-cli'];

/** Every tool the guard knows, by the name the host sends in `tool_name`. */
export const TOOLS: Readonly<Record<string, ToolSpec>> = {
  // VS Code's built-in agent tools
  create_file: { kind: 'edit', hosts: V },
  replace_string_in_file: { kind: 'edit', hosts: V },
  multi_replace_string_in_file: { kind: 'edit', hosts: V },
  insert_edit_into_file: { kind: 'edit', hosts: V },
  edit_notebook_file: { kind: 'edit', hosts: V },
  create_directory: { kind: 'edit', hosts: V },
  apply_patch: { kind: 'edit', hosts: ['vscode', 'copilot-cli'] },
  // In the `edit` tool set: renames a symbol across files it chooses.
  vscode_renameSymbol: { kind: 'edit', hosts: V, unnamedFiles: true },
  // The tool set name VS Code's hooks documentation uses in its examples.
  editFiles: { kind: 'edit', hosts: V },
  run_in_terminal: { kind: 'terminal', hosts: V },
  // Writes a task into .vscode/tasks.json and runs its shell command.
  create_and_run_task: { kind: 'terminal', hosts: V },
  run_task: { kind: 'terminal', hosts: V },
  read_file: { kind: 'read', hosts: V },
  file_search: { kind: 'read', hosts: V },
  grep_search: { kind: 'read', hosts: V },
  semantic_search: { kind: 'read', hosts: V },
  list_dir: { kind: 'read', hosts: V },
  get_errors: { kind: 'read', hosts: V },
  get_changed_files: { kind: 'read', hosts: V },
  get_terminal_output: { kind: 'read', hosts: V },
  test_failure: { kind: 'read', hosts: V },
  fetch_webpage: { kind: 'read', hosts: V },
  runSubagent: { kind: 'subagent', hosts: V },
  manage_todo_list: { kind: 'read', hosts: V },
  vscode_listCodeUsages: { kind: 'read', hosts: V },
  // Claude Code (2.1.332 has no MultiEdit; older versions do)
  Write: { kind: 'edit', hosts: CP },
  Edit: { kind: 'edit', hosts: CP },
  MultiEdit: { kind: 'edit', hosts: C },
  NotebookEdit: { kind: 'edit', hosts: C },
  Bash: { kind: 'terminal', hosts: CP },
  Read: { kind: 'read', hosts: CP },
  Grep: { kind: 'read', hosts: C },
  Glob: { kind: 'read', hosts: C },
  LS: { kind: 'read', hosts: C },
  WebFetch: { kind: 'read', hosts: C },
  WebSearch: { kind: 'read', hosts: C },
  TodoWrite: { kind: 'read', hosts: C },
  Agent: { kind: 'subagent', hosts: CP },
  Task: { kind: 'subagent', hosts: C },
  // Copilot CLI's own names (its documentation)
  create: { kind: 'edit', hosts: P },
  edit: { kind: 'edit', hosts: P },
  write: { kind: 'edit', hosts: P },
  str_replace_editor: { kind: 'edit', hosts: P, readOnlyCommands: ['view'] },
  bash: { kind: 'terminal', hosts: P },
  powershell: { kind: 'terminal', hosts: P },
  // Sends input to a shell session it started: runs commands too.
  write_bash: { kind: 'terminal', hosts: P },
  write_powershell: { kind: 'terminal', hosts: P },
  view: { kind: 'read', hosts: P },
  glob: { kind: 'read', hosts: P },
  grep: { kind: 'read', hosts: P },
  read_bash: { kind: 'read', hosts: P },
  read_powershell: { kind: 'read', hosts: P },
  stop_bash: { kind: 'read', hosts: P },
  list_bash: { kind: 'read', hosts: P },
  web_fetch: { kind: 'read', hosts: P },
  report_intent: { kind: 'read', hosts: P },
  update_todo: { kind: 'read', hosts: P },
  task: { kind: 'subagent', hosts: P },
};

/** Words in a tool's name that say it may change files or run something (for tools not in the table). */
const CHANGING_WORDS = ['write', 'edit', 'create', 'delete', 'remove', 'rename', 'move', 'patch', 'replace', 'insert', 'apply', 'save', 'update', 'exec', 'run', 'shell', 'bash', 'terminal', 'command', 'powershell', 'notebook'];
/** Whether a tool's name holds one of those words, any case (a plain search: no pattern built at run time). */
const changingName = (name: string): boolean => {
  const lower = name.toLowerCase();
  return CHANGING_WORDS.some((w) => lower.includes(w));
};

/** Input fields that carry one path, in any host's spelling. */
const PATH_FIELDS = ['file_path', 'filePath', 'path', 'notebook_path', 'notebookPath', 'dirPath', 'uri', 'file', 'target_file', 'targetFile', 'new_path', 'newPath', 'old_path', 'oldPath', 'destination', 'source'];

const str = (v: unknown): string[] => (typeof v === 'string' && v !== '' ? [v] : []);

/**
 * The files an apply_patch text touches: `*** Add File: p`, `*** Update File: p`, `*** Delete File: p`,
 * `*** Move to: p`. Read as VS Code's parser reads it: lines end at '\n' only and the path is the
 * rest of the line as it is (a '\r' of a CRLF line aside), so a carriage return or U+2028 inside a
 * path (`src/\u2028/../app.ts` writes `src/app.ts`) cannot hide a file from the guard, and
 * `review.md ` is another file than `review.md`. A header may be indented: a host whose parser trims
 * its lines (Copilot CLI's may) writes that file too. A context line that reads as a header is then
 * taken for one too, which only ever adds a path for the guard to judge.
 */
export function patchPaths(patch: unknown): string[] {
  if (typeof patch !== 'string') return [];
  const out: string[] = [];
  for (const raw of patch.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const m = /^\s*\*\*\* (?:Add File|Update File|Delete File|Move to): ([^\n]+)$/.exec(line);
    if (m) out.push(m[1]);
  }
  return out;
}

/** Every path the input names, in every field any host uses for one. */
export function inputPaths(input: Input): string[] {
  const out: string[] = [];
  for (const f of PATH_FIELDS) out.push(...str(input[f]));
  if (Array.isArray(input.files)) for (const f of input.files) out.push(...str(f));
  if (Array.isArray(input.replacements)) {
    for (const r of input.replacements) if (r && typeof r === 'object') out.push(...str((r as Input).filePath), ...str((r as Input).file_path), ...str((r as Input).path));
  }
  if (Array.isArray(input.edits)) {
    for (const e of input.edits) if (e && typeof e === 'object') out.push(...str((e as Input).file_path), ...str((e as Input).filePath), ...str((e as Input).path));
  }
  out.push(...patchPaths(input.input), ...patchPaths(input.patch));
  return [...new Set(out)];
}

const commandOf = (i: Input): string => (typeof i.command === 'string' ? i.command : typeof i.input === 'string' ? i.input : '');

/** The custom agent a subagent tool names: Claude Code's `subagent_type`, Copilot CLI's `agent_type`, VS Code's `agentName`. */
const agentOf = (i: Input): string => [i.subagent_type, i.agent_type, i.agentName].find((v): v is string => typeof v === 'string' && v !== '') ?? '';

export function classifyToolCall(toolName: string, toolInput: Input): ToolCall {
  const spec = Object.hasOwn(TOOLS, toolName) ? TOOLS[toolName] : null;
  if (spec) {
    if (spec.kind === 'read') return { kind: 'other' };
    if (spec.kind === 'subagent') return { kind: 'subagent', agent: agentOf(toolInput) };
    if (spec.kind === 'terminal') return { kind: 'terminal', command: commandOf(toolInput) };
    if (spec.readOnlyCommands && typeof toolInput.command === 'string' && spec.readOnlyCommands.includes(toolInput.command)) return { kind: 'other' };
    return { kind: 'edit', paths: spec.unnamedFiles ? [] : inputPaths(toolInput).map(plainPath) };
  }
  const paths = inputPaths(toolInput).map(plainPath);
  if (changingName(toolName) || paths.length > 0) return { kind: 'unknown-edit', paths };
  return { kind: 'other' };
}

/** Case-insensitive letters for a regex JavaScript and Rust both read (JS has no inline `(?i)`). */
const anyCase = (word: string): string => word.replace(/[a-z]/g, (c) => `[${c.toUpperCase()}${c}]`);

/**
 * The PreToolUse matcher for hosts that honour one (Claude Code: a regex when it is not a plain name
 * list; Copilot CLI: a full-match regex): every edit and terminal tool of the table, and any name that
 * says it changes something, so an unknown edit tool still reaches the guard. The read tools start no
 * process.
 */
export function guardMatcher(hosts: readonly Host[]): string {
  const names = Object.entries(TOOLS)
    .filter(([, s]) => s.kind !== 'read' && s.hosts.some((h) => hosts.includes(h)))
    .map(([n]) => n);
  return `^(?:${names.join('|')}|.*(?:${CHANGING_WORDS.map(anyCase).join('|')}).*)$`;
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
