// How each host's model calls the tools the scenarios need: the names and argument fields the host
// offers its model (read from the tools in the requests each host sends).
import type { ToolCall } from '../scripted-model/conversation';

export interface ToolDialect {
  host: 'claude' | 'copilot-cli';
  write(file: string, content: string): ToolCall;
  edit(file: string, oldText: string, newText: string): ToolCall;
  /** Replaces a whole file that exists already (`current` is what the model read of it). */
  rewrite(file: string, current: string, content: string): ToolCall;
  shell(command: string): ToolCall;
  /** Starts the named custom agent as a subagent. */
  subagent(agent: string, prompt: string, options?: { background?: boolean }): ToolCall;
  /** The names of the edit tools in tool results / payloads. */
  toolNames: { write: string; edit: string; shell: string; subagent: string };
}

export const CLAUDE_TOOLS: ToolDialect = {
  host: 'claude',
  write: (file, content) => ({ name: 'Write', input: { file_path: file, content } }),
  edit: (file, oldText, newText) => ({ name: 'Edit', input: { file_path: file, old_string: oldText, new_string: newText } }),
  rewrite: (file, _current, content) => ({ name: 'Write', input: { file_path: file, content } }),
  shell: (command) => ({ name: 'Bash', input: { command, description: 'Run a shell command' } }),
  subagent: (agent, prompt, options) => ({
    name: 'Agent',
    input: { subagent_type: agent, description: `${agent} at work`, prompt, run_in_background: options?.background ?? false },
  }),
  toolNames: { write: 'Write', edit: 'Edit', shell: 'Bash', subagent: 'Agent' },
};

/** Copilot CLI 1.0.102's own tools: `create {path, file_text}` (new files only), `edit {path, old_str, new_str}`, `bash`, `task`. */
export const COPILOT_TOOLS: ToolDialect = {
  host: 'copilot-cli',
  write: (file, content) => ({ name: 'create', input: { path: file, file_text: content } }),
  edit: (file, oldText, newText) => ({ name: 'edit', input: { path: file, old_str: oldText, new_str: newText } }),
  // `create` refuses a file that exists: the whole old text is replaced instead.
  rewrite: (file, current, content) => ({ name: 'edit', input: { path: file, old_str: current, new_str: content } }),
  shell: (command) => ({ name: 'bash', input: { command, description: 'Run a shell command' } }),
  subagent: (agent, prompt, options) => ({
    name: 'task',
    input: { agent_type: agent, name: agent, description: `${agent} at work`, prompt, mode: options?.background ? 'background' : 'sync' },
  }),
  toolNames: { write: 'create', edit: 'edit', shell: 'bash', subagent: 'task' },
};
