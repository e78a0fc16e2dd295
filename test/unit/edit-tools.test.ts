// The review guard's view of tool calls (DESIGN.md section 5's tool list) and of the running host.
import * as assert from 'node:assert/strict';
import { detectHost, isDuplicateRun } from '../../src/core/agent-hooks/agent-host';
import { classifyToolCall, patchPaths } from '../../src/core/agent-hooks/edit-tools';

describe('edit tools and hosts', () => {
  it('reads every file an apply_patch text touches, moves included', () => {
    const patch = ['*** Begin Patch', '*** Update File: src/a.ts', '@@', '-x', '+y', '*** Move to: src/b.ts', '*** Delete File: old/c.ts', '*** Add File: new/d.ts', '+z', '*** End Patch'].join('\n');
    assert.deepEqual(patchPaths(patch), ['src/a.ts', 'src/b.ts', 'old/c.ts', 'new/d.ts']);
    assert.deepEqual(patchPaths('*** Begin Patch\r\n*** Add File: win.ts\r\n+1\r\n*** End Patch'), ['win.ts']);
    assert.deepEqual(patchPaths(42), []);
  });

  it('tells edits, terminal commands and everything else apart, with the paths each tool names', () => {
    assert.deepEqual(classifyToolCall('multi_replace_string_in_file', { replacements: [{ filePath: 'a' }, { filePath: 'b' }, { nope: 1 }, null] }), { kind: 'edit', paths: ['a', 'b'] });
    assert.deepEqual(classifyToolCall('create_directory', { dirPath: '/p/d' }), { kind: 'edit', paths: ['/p/d'] });
    assert.deepEqual(classifyToolCall('edit_notebook_file', { filePath: 'file:///p/n.ipynb' }), { kind: 'edit', paths: ['/p/n.ipynb'] });
    assert.deepEqual(classifyToolCall('NotebookEdit', { notebook_path: 'n.ipynb' }), { kind: 'edit', paths: ['n.ipynb'] });
    assert.deepEqual(classifyToolCall('Write', {}), { kind: 'edit', paths: [] });
    assert.deepEqual(classifyToolCall('run_in_terminal', { command: 'rm -rf build' }), { kind: 'terminal', command: 'rm -rf build' });
    assert.deepEqual(classifyToolCall('Bash', { command: 42 }), { kind: 'terminal', command: '' });
    for (const tool of ['create_and_run_task', 'read_file', 'Read', 'Grep', 'runSubagent', 'writeToTerminal', 'toString', '__proto__']) {
      assert.deepEqual(classifyToolCall(tool, {}), { kind: 'other' }, tool);
    }
  });

  it('knows the host from what it sends, and which run is a duplicate', () => {
    // VS Code (vscode-copilot-chat chatHookService.ts) and Copilot CLI put a timestamp in every payload.
    assert.equal(detectHost({ timestamp: '2026-11-22T10:00:00Z' }, { CLAUDE_PROJECT_DIR: '/p' }, 'claude').dialect, 'github');
    assert.equal(detectHost({ timestamp: 1763805600000 }, {}, null).dialect, 'github');
    // Claude Code sets CLAUDE_PROJECT_DIR and sends permission_mode, no timestamp.
    assert.equal(detectHost({ permission_mode: 'default' }, { CLAUDE_PROJECT_DIR: '/p' }, 'claude').dialect, 'claude');
    assert.equal(detectHost({}, {}, 'claude').dialect, 'claude');
    assert.equal(detectHost({}, {}, 'vscode').dialect, 'github');
    const vscodeOnClaudeFile = detectHost({ timestamp: 't' }, {}, 'claude');
    assert.equal(isDuplicateRun(vscodeOnClaudeFile, 'Stop', () => true), true);
    assert.equal(isDuplicateRun(vscodeOnClaudeFile, 'Stop', () => false), false);
    // VS Code also reads .claude/agents: that reviewer's own PreToolUse guard is never a repeat.
    assert.equal(isDuplicateRun(vscodeOnClaudeFile, 'PreToolUse', () => true), false);
    assert.equal(isDuplicateRun(detectHost({}, { CLAUDE_PROJECT_DIR: '/p' }, 'claude'), 'Stop', () => true), false);
    assert.equal(isDuplicateRun(detectHost({ timestamp: 't' }, {}, 'vscode'), 'Stop', () => true), false);
  });
});
