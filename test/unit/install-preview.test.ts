// The preview GSD: Install Agent Hooks shows before writing: every file in full. Read back with a
// CommonMark parser (markdown-it), each fenced block must be exactly the file that would be written,
// whatever backticks the file itself holds.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import MarkdownIt from 'markdown-it';
import { readOrNull } from '../../src/core/files/file-changes';
import { planInstall, type FileChange } from '../../src/core/agent-hooks/hook-install';
import { installPreview, vscodeRunsHooks } from '../../src/vscode/agent-hooks/install-preview';
import { copySample } from './helpers/gsd-tree';

const english = (m: string) => m;

function fencedBlocks(markdown: string): string[] {
  return new MarkdownIt().parse(markdown, {}).filter((t) => t.type === 'fence').map((t) => t.content);
}

describe('Install Agent Hooks preview', () => {
  it('shows every file of a real install plan in full, one heading per file', () => {
    const root = copySample();
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-home-'));
    const changes = [...planInstall({ root, host: 'vscode', user: false, home }, readOrNull).changes, ...planInstall({ root, host: 'claude', user: false, home }, readOrNull).changes];
    assert.ok(changes.length >= 4);
    const text = installPreview(root, changes, ['.claude/settings.json: not ours'], english);
    assert.deepEqual(fencedBlocks(text), changes.map((c) => c.after!.trimEnd() + '\n'));
    for (const c of changes) assert.ok(text.includes(`## Create ${path.relative(root, c.file)}\n`), path.relative(root, c.file));
    assert.ok(text.endsWith('- Left alone: .claude/settings.json: not ours\n'));
  });

  it('keeps a file whole that holds code fences of its own', () => {
    const tricky = ['# Agent', '', '````md', '```sh', 'echo hi', '```', '````', '~~~~', ''].join('\n');
    const change: FileChange = { file: '/p/.github/agents/x.agent.md', before: 'old', after: tricky, purpose: 'The reviewer agent.' };
    const text = installPreview('/p', [change], [], english);
    assert.deepEqual(fencedBlocks(text), [tricky.trimEnd() + '\n']);
    assert.match(text, /## Update \.github\/agents\/x\.agent\.md/);
  });

  it('knows which VS Code runs agent hooks (1.109.3 and later)', () => {
    assert.deepEqual(['1.100.3', '1.109.2', '1.109.3', '1.110.0', '1.139.1-insider', '2.0.0'].map(vscodeRunsHooks), [false, false, true, true, true, true]);
  });
});
