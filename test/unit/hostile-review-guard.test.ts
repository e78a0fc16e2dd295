// The review guard reads the files an apply_patch text touches. VS Code's parser
// (vscode-copilot-chat src/extension/tools/node/applyPatch/parser.ts) splits the text at '\n' only
// and takes the rest of a header line, as it is, as the path; the file is then found by a path that
// is normalised (`a/x/../b` is `a/b`). A header whose path held a carriage return or a line or
// paragraph separator (U+2028, U+2029) was invisible to the guard (a JavaScript `.` does not match
// them), so a reviewer could update the review file and, in the same call, any other file.
import * as assert from 'node:assert/strict';
import { classifyToolCall, patchPaths } from '../../src/core/hooks/lifecycle/edit-tools';

const REVIEW = '.gsd/milestones/M001/slices/S01/tasks/T01-CODE-REVIEW.md';

function patch(...ops: string[]): string {
  return ['*** Begin Patch', `*** Update File: ${REVIEW}`, '@@', '-verdict: pending', '+verdict: approved', ...ops, '*** End Patch'].join('\n');
}

describe('apply_patch texts that hide a second file from the review guard', () => {
  for (const [name, sep] of [['a carriage return', '\r'], ['U+2028', '\u2028'], ['U+2029', '\u2029']] as const) {
    it(`a path holding ${name} is still a path the call writes`, () => {
      const hidden = `src/${sep}/../invoice.ts`;
      const text = patch(`*** Update File: ${hidden}`, '@@', '-const total = 1;', '+const total = 2;');
      assert.deepEqual(patchPaths(text), [REVIEW, hidden]);
      const call = classifyToolCall('apply_patch', { input: text, explanation: 'review' });
      assert.equal(call.kind, 'edit');
      assert.ok(call.kind === 'edit' && call.paths.includes(hidden));
    });
  }

  it('a path is taken as the host takes it: trailing spaces make another file, not the review', () => {
    assert.deepEqual(patchPaths(patch(`*** Add File: ${REVIEW} `, '+x')), [REVIEW, `${REVIEW} `]);
  });

  it('a Move to on a line of its own, out of the review file, is seen', () => {
    const text = ['*** Begin Patch', `*** Update File: ${REVIEW}`, '*** Move to: src/invoice.ts', '@@', '-a', '+b', '*** End Patch'].join('\n');
    assert.deepEqual(patchPaths(text), [REVIEW, 'src/invoice.ts']);
  });
});
