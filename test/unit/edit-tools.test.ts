// The review guard's view of tool calls (docs/agent-hooks.md's tool table) and of the running host.
import * as assert from 'node:assert/strict';
import { detectHost, isDuplicateRun } from '../../src/core/agent-hooks/agent-host';
import { classifyToolCall, guardMatcher, patchPaths } from '../../src/core/hooks/lifecycle/edit-tools';

describe('edit tools and hosts', () => {
  it('reads every file an apply_patch text touches, moves included', () => {
    const patch = ['*** Begin Patch', '*** Update File: src/a.ts', '@@', '-x', '+y', '*** Move to: src/b.ts', '*** Delete File: old/c.ts', '*** Add File: new/d.ts', '+z', '*** End Patch'].join('\n');
    assert.deepEqual(patchPaths(patch), ['src/a.ts', 'src/b.ts', 'old/c.ts', 'new/d.ts']);
    assert.deepEqual(patchPaths('*** Begin Patch\r\n*** Add File: win.ts\r\n+1\r\n*** End Patch'), ['win.ts']);
    assert.deepEqual(patchPaths(42), []);
  });

  it('reads an indented header as a header: a host whose parser trims the line writes that file', () => {
    const patch = ['*** Begin Patch', '*** Update File: .gsd/T01-CODE-REVIEW.md', '@@', '-a', '+b', '  *** Update File: src/app.ts', '@@', '-x', '+y', '\t*** Add File: src/new.ts', '+z', ' \u00a0*** Move to: src/moved.ts', '*** End Patch'].join('\n');
    assert.deepEqual(patchPaths(patch), ['.gsd/T01-CODE-REVIEW.md', 'src/app.ts', 'src/new.ts', 'src/moved.ts']);
    // An added or removed line is never a header: it starts with its mark (`-`, `+`) before any `***`.
    assert.deepEqual(patchPaths(['*** Begin Patch', '*** Update File: a.ts', '@@', '-*** Update File: b.ts', '+*** Add File: c.ts', '*** End Patch'].join('\n')), ['a.ts']);
  });

  it('tells edits, terminal commands and everything else apart, with the paths each tool names', () => {
    assert.deepEqual(classifyToolCall('multi_replace_string_in_file', { replacements: [{ filePath: 'a' }, { filePath: 'b' }, { nope: 1 }, null] }), { kind: 'edit', paths: ['a', 'b'] });
    assert.deepEqual(classifyToolCall('create_directory', { dirPath: '/p/d' }), { kind: 'edit', paths: ['/p/d'] });
    assert.deepEqual(classifyToolCall('edit_notebook_file', { filePath: 'file:///p/n.ipynb' }), { kind: 'edit', paths: ['/p/n.ipynb'] });
    assert.deepEqual(classifyToolCall('NotebookEdit', { notebook_path: 'n.ipynb' }), { kind: 'edit', paths: ['n.ipynb'] });
    assert.deepEqual(classifyToolCall('Write', {}), { kind: 'edit', paths: [] });
    assert.deepEqual(classifyToolCall('run_in_terminal', { command: 'rm -rf build' }), { kind: 'terminal', command: 'rm -rf build' });
    assert.deepEqual(classifyToolCall('Bash', { command: 42 }), { kind: 'terminal', command: '' });
    for (const tool of ['read_file', 'Read', 'Grep', 'view', 'toString', '__proto__']) {
      assert.deepEqual(classifyToolCall(tool, {}), { kind: 'other' }, tool);
    }
  });

  it('reads the agent each host\'s subagent tool starts (the review loop notes its reviewer starting)', () => {
    // Claude Code's Agent {subagent_type}, Copilot CLI 1.0.102's task {agent_type} (run live), VS Code's runSubagent {agentName}.
    assert.deepEqual(classifyToolCall('Agent', { subagent_type: 'gsd-reviewer', prompt: 'p', run_in_background: true }), { kind: 'subagent', agent: 'gsd-reviewer' });
    assert.deepEqual(classifyToolCall('task', { agent_type: 'gsd-reviewer', name: 'gsd-reviewer', prompt: 'p', mode: 'background' }), { kind: 'subagent', agent: 'gsd-reviewer' });
    assert.deepEqual(classifyToolCall('runSubagent', { agentName: 'gsd-reviewer', prompt: 'p' }), { kind: 'subagent', agent: 'gsd-reviewer' });
    assert.deepEqual(classifyToolCall('runSubagent', { prompt: 'p' }), { kind: 'subagent', agent: '' });
  });

  it('reads Copilot CLI\'s own fields under Claude Code\'s names, and its own tools (docs/agent-hooks.md)', () => {
    // Copilot CLI: tool_name Write/Edit with tool_input {path, file_text} / {path, old_str, new_str}.
    assert.deepEqual(classifyToolCall('Write', { path: '/p/.gsd/T01-CODE-REVIEW.md', file_text: 'x' }), { kind: 'edit', paths: ['/p/.gsd/T01-CODE-REVIEW.md'] });
    assert.deepEqual(classifyToolCall('Edit', { path: 'src/a.ts', old_str: 'a', new_str: 'b' }), { kind: 'edit', paths: ['src/a.ts'] });
    for (const tool of ['create', 'edit', 'write', 'str_replace_editor']) {
      assert.deepEqual(classifyToolCall(tool, { command: 'create', path: 'src/a.ts', file_text: 'x' }), { kind: 'edit', paths: ['src/a.ts'] }, tool);
    }
    assert.deepEqual(classifyToolCall('str_replace_editor', { command: 'view', path: 'src/a.ts' }), { kind: 'other' });
    assert.deepEqual(classifyToolCall('bash', { command: 'echo x > src/a.ts' }), { kind: 'terminal', command: 'echo x > src/a.ts' });
    assert.deepEqual(classifyToolCall('powershell', { command: 'Set-Content src/a.ts x' }), { kind: 'terminal', command: 'Set-Content src/a.ts x' });
    // Every path field a host sends is read, whatever the tool.
    assert.deepEqual(classifyToolCall('Write', { file_path: 'a', path: 'b' }).kind === 'edit' && (classifyToolCall('Write', { file_path: 'a', path: 'b' }) as { paths: string[] }).paths.sort(), ['a', 'b']);
  });

  it('guards VS Code\'s vscode_renameSymbol (in the edit tool set) as an edit of files it does not name', () => {
    assert.deepEqual(classifyToolCall('vscode_renameSymbol', { uri: 'file:///p/.gsd/T01-CODE-REVIEW.md', newName: 'x' }), { kind: 'edit', paths: [] });
  });

  it('takes a tool it does not know for a possible edit when its name or input says so', () => {
    assert.deepEqual(classifyToolCall('mcp__fs__write_file', { path: 'src/a.ts' }), { kind: 'unknown-edit', paths: ['src/a.ts'] });
    assert.deepEqual(classifyToolCall('writeToTerminal', {}), { kind: 'unknown-edit', paths: [] });
    assert.deepEqual(classifyToolCall('fancy_tool', { file_path: 'src/a.ts' }), { kind: 'unknown-edit', paths: ['src/a.ts'] });
    assert.deepEqual(classifyToolCall('lookup_docs', { query: 'x' }), { kind: 'other' });
  });

  it('generates the hosts\' matchers from the table: every edit, terminal and subagent tool matches, read tools do not', () => {
    // Claude Code reads a matcher with other characters than names and | as a regex; Copilot CLI full-matches.
    const re = new RegExp(guardMatcher(['claude', 'copilot-cli']));
    for (const tool of ['Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'Bash', 'create', 'edit', 'write', 'str_replace_editor', 'bash', 'powershell', 'mcp__fs__write_file', 'apply_patch']) assert.ok(re.test(tool), tool);
    for (const tool of ['Read', 'Grep', 'Glob', 'WebSearch', 'view', 'glob', 'grep']) assert.ok(!re.test(tool), tool);
    // The subagent tools reach the hook: the review loop notes its reviewer starting there.
    for (const tool of ['Agent', 'task']) assert.ok(re.test(tool), tool);
  });

  it('knows the host from what it sends, and which run is a duplicate', () => {
    // VS Code (vscode-copilot-chat chatHookService.ts) puts an ISO timestamp in every payload.
    assert.equal(detectHost({ timestamp: '2026-11-22T10:00:00Z' }, {}, 'claude').dialect, 'vscode');
    assert.equal(detectHost({ timestamp: '2026-11-22T10:00:00Z' }, {}, 'vscode').dialect, 'vscode');
    // Copilot CLI sets COPILOT_CLI=1 (and CLAUDE_PROJECT_DIR) for every hook, from either file.
    assert.equal(detectHost({ timestamp: '2026-11-22T10:00:00Z' }, { COPILOT_CLI: '1', CLAUDE_PROJECT_DIR: '/p' }, 'vscode').dialect, 'copilot-cli');
    assert.equal(detectHost({ timestamp: '2026-11-22T10:00:00Z' }, { COPILOT_CLI: '1', CLAUDE_PROJECT_DIR: '/p' }, 'claude').dialect, 'copilot-cli');
    // Its camelCase SubagentStart carries a numeric timestamp.
    assert.equal(detectHost({ timestamp: 1763805600000 }, {}, null).dialect, 'copilot-cli');
    // Claude Code sets CLAUDE_PROJECT_DIR and sends permission_mode, no timestamp.
    assert.equal(detectHost({ permission_mode: 'default' }, { CLAUDE_PROJECT_DIR: '/p' }, 'claude').dialect, 'claude');
    assert.equal(detectHost({}, {}, 'claude').dialect, 'claude');
    assert.equal(detectHost({}, {}, 'vscode').dialect, 'vscode');
    const copilotOnClaudeFile = detectHost({ timestamp: 't' }, { COPILOT_CLI: '1' }, 'claude');
    assert.equal(isDuplicateRun(copilotOnClaudeFile, 'Stop', () => true), true);
    assert.equal(isDuplicateRun(copilotOnClaudeFile, 'PreToolUse', () => true), true);
    assert.equal(isDuplicateRun(copilotOnClaudeFile, 'Stop', () => false), false);
    assert.equal(isDuplicateRun(detectHost({ timestamp: 't' }, {}, 'claude'), 'Stop', () => true), true);
    assert.equal(isDuplicateRun(detectHost({}, { CLAUDE_PROJECT_DIR: '/p' }, 'claude'), 'Stop', () => true), false);
    assert.equal(isDuplicateRun(detectHost({ timestamp: 't' }, {}, 'vscode'), 'Stop', () => true), false);
  });
});
