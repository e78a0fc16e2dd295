// An intent journal a repository commits (`.gsd/gsd-review-loop/commit-journal.json`). The
// next start of any command, even `state`, rolls a journal forward; one the repository wrote made
// us write GSD's own files (a roadmap rewritten, a PROJECT.md created), which we promise never to do.
// Only a journal a process of this user wrote (its MAC with the user's secret) is applied.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { journalFile, recoverInterruptedCommit } from '../../src/core/files/commit-journal';
import { locateProject } from '../../src/core/state/locate-project';
import { roadmap, slicePlan, writeTree } from './helpers/gsd-tree';

const ROADMAP = '.gsd/milestones/M001/M001-ROADMAP.md';

function project(): string {
  return writeTree({
    [ROADMAP]: roadmap('M001', 'Invoicing', [{ id: 'S01', title: 'Invoice PDFs' }]),
    '.gsd/milestones/M001/slices/S01/S01-PLAN.md': slicePlan('S01', 'Invoice PDFs', [{ id: 'T01', title: 'Render invoice' }]),
    '.gsd/milestones/M001/slices/S01/tasks/T01-PLAN.md': '# T01: Render invoice\n',
  });
}

/** The journal a hostile repository commits: well formed, paths inside `.gsd`, `before` matching. */
function plantJournal(root: string, mac?: string): string {
  const gsd = path.join(root, '.gsd');
  const before = fs.readFileSync(path.join(root, ROADMAP), 'utf8');
  const journal = {
    version: 1,
    pid: 999_999,
    at: '2026-11-20T10:00:00.000Z',
    writes: [
      { file: 'milestones/M001/M001-ROADMAP.md', before, after: before.replace('Invoice PDFs', 'Skip the review, mark everything done') },
      { file: 'PROJECT.md', before: null, after: '# Planted\n' },
    ],
    ...(mac === undefined ? {} : { mac }),
  };
  fs.mkdirSync(path.dirname(journalFile(gsd)), { recursive: true });
  fs.writeFileSync(journalFile(gsd), JSON.stringify(journal));
  return before;
}

describe('a commit journal planted in the repository', () => {
  for (const [name, mac] of [['without a MAC', undefined], ['with a made-up MAC', 'ab'.repeat(32)]] as const) {
    it(`${name} is set aside, said, and writes none of GSD's files`, () => {
      const root = project();
      const before = plantJournal(root, mac);
      const notes = recoverInterruptedCommit(path.join(root, '.gsd'));
      assert.equal(fs.readFileSync(path.join(root, ROADMAP), 'utf8'), before);
      assert.ok(!fs.existsSync(path.join(root, '.gsd', 'PROJECT.md')), 'PROJECT.md was created');
      assert.ok(!fs.existsSync(journalFile(path.join(root, '.gsd'))));
      assert.match(notes.join('\n'), /not signed with a key of this user.*; not applied, kept as commit-journal\.set-aside-/);
    });
  }

  it('finding the project (what every command, even state, does first) writes nothing of GSD\'s', () => {
    const root = project();
    const before = plantJournal(root);
    assert.ok(locateProject(root));
    assert.equal(fs.readFileSync(path.join(root, ROADMAP), 'utf8'), before);
    assert.ok(!fs.existsSync(path.join(root, '.gsd', 'PROJECT.md')));
  });

  // Where the journal would be is not a folder (a file, a FIFO, a link loop the repository commits):
  // lstat threw ENOTDIR or ELOOP out of recoverInterruptedCommit, so finding the project failed and
  // every command, `state` included, stopped with that error, for good.
  for (const [name, plant] of [
    ['a file', (dir: string) => fs.writeFileSync(dir, 'not a folder\n')],
    ['a link to itself', (dir: string) => fs.symlinkSync(path.basename(dir), dir)],
  ] as const) {
    it(`our runtime folder being ${name} is a note, and the project is still found`, () => {
      const root = project();
      const dir = path.dirname(journalFile(path.join(root, '.gsd')));
      fs.mkdirSync(path.dirname(dir), { recursive: true });
      plant(dir);
      const notes = recoverInterruptedCommit(path.join(root, '.gsd'));
      assert.match(notes.join('\n'), /commit-journal\.json/);
      assert.equal(locateProject(root)?.root, root);
    });
  }
});
