// The record GSD: Undo Agent Hooks Install works from. VS Code keeps workspace storage as JSON
// across window reloads, so the record must come back from its JSON text whole, and a value that is
// not a record (damaged, or from another version) must read as none: Undo writes the files it names.
import * as assert from 'node:assert/strict';
import { INSTALL_UNDO_KEY, readInstallUndo, type InstallUndoRecord, type RecordStorage } from '../../src/vscode/agent-hooks/install-undo-record';

/** Workspace storage after a reload: what the last window stored, back from its JSON text. */
function reloaded(value: unknown): RecordStorage {
  const text = JSON.stringify({ [INSTALL_UNDO_KEY]: value });
  const stored = JSON.parse(text) as Record<string, unknown>;
  return { get: (key) => stored[key], update: async () => undefined };
}

const record: InstallUndoRecord = {
  id: '1-abc',
  what: 'agent hooks',
  root: '/repo',
  at: '2026-11-28T15:00:00.000Z',
  applied: [
    { file: '/repo/.github/hooks/gsd-review-loop.sh', before: null, after: '#!/bin/sh\n', purpose: 'launcher', root: '/repo', createdDirs: ['/repo/.github', '/repo/.github/hooks'] },
    { file: '/repo/.claude/settings.json', before: '{"env":{}}\n', after: '{"env":{},"hooks":{}}\n', purpose: 'settings', root: '/repo' },
  ],
};

describe('install undo record', () => {
  it('comes back whole after a reload (workspace storage is JSON): the texts before and after each file, the folders made', () => {
    assert.deepEqual(readInstallUndo(reloaded(record)), record);
  });

  it('reads a damaged or foreign value as no record, never as files to write', () => {
    for (const bad of [
      undefined,
      'text',
      { ...record, what: 'everything' },
      { ...record, applied: [] },
      { ...record, applied: [{ ...record.applied[0], file: 42 }] },
      { ...record, applied: [{ ...record.applied[0], before: { text: 'x' } }] },
      { ...record, applied: [{ ...record.applied[0], createdDirs: ['/repo', 7] }] },
      { ...record, home: 1 },
      { ...record, id: undefined },
    ]) {
      assert.equal(readInstallUndo(reloaded(bad)), null, JSON.stringify(bad));
    }
  });
});
