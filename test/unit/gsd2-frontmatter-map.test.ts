// GSD-2 reads a CONTEXT's depends_on and a milestone SUMMARY's status with its own line reader, not
// YAML (shared/frontmatter.ts at 76568edc). Each case states what GSD-2's reader gives; an
// out-of-repository differential run of GSD-2's own functions against ours agreed on 20,000 random
// frontmatters (CRLF, quotes, indentation, objects in lists).
import * as assert from 'node:assert/strict';
import { gsd2DependsOn, gsd2FrontmatterMap } from '../../src/core/parse/gsd2-frontmatter-map';
import { roadmap } from './helpers/gsd-tree';
import { writeTree } from './helpers/write-tree';
import { fullState, lazyState } from './helpers/state';

const fm = (...lines: string[]) => `---\n${lines.join('\n')}\n---\n\n# M002: Digest\n`;

describe('a frontmatter as GSD-2 reads it', () => {
  it('depends_on: a flow list or a list of two-space items; a scalar is no list', () => {
    assert.deepEqual(gsd2DependsOn(fm('depends_on: [M001, M003-x7k2m9]')), ['M001', 'M003-x7k2m9']);
    assert.deepEqual(gsd2DependsOn(fm('depends_on:', '  - M001', "  - 'M003'")), ['M001', 'M003']);
    assert.deepEqual(gsd2DependsOn(fm('depends_on: M001')), []);
    assert.deepEqual(gsd2DependsOn(fm('depends_on: []')), []);
  });

  it('keeps quotes inside a flow list, and ignores items not indented by exactly two spaces', () => {
    assert.deepEqual(gsd2DependsOn(fm('depends_on: ["M001", M002]')), ['"M001"', 'M002']);
    assert.deepEqual(gsd2DependsOn(fm('depends_on:', '    - M001', '- M002')), []);
  });

  it('reads nothing of a CRLF block, and nothing without a closing ---', () => {
    assert.deepEqual(gsd2FrontmatterMap('---\r\nstatus: complete\r\ndepends_on: [M001]\r\n---\r\n'), {});
    assert.deepEqual(gsd2FrontmatterMap('---\nstatus: complete\n'), {});
  });

  it('scalars lose surrounding quotes; `  - key: value` items are objects with their four-space lines', () => {
    assert.deepEqual(gsd2FrontmatterMap(fm('status: "done"', 'requires:', '  - slice: S01', '    provides: api', '  - S02')), {
      status: 'done',
      requires: [{ slice: 'S01', provides: 'api' }, 'S02'],
    });
  });

  it('a milestone whose CONTEXT says `depends_on: M001` (no list) does not wait, as in GSD-2', () => {
    const root = writeTree({
      '.gsd/milestones/M001/M001-CONTEXT.md': '# M001: Login\n\nUsers sign in.\n',
      '.gsd/milestones/M001/M001-PARKED.md': '# Parked\n\nOn hold.\n',
      '.gsd/milestones/M002/M002-CONTEXT.md': fm('depends_on: M001'),
      '.gsd/milestones/M002/M002-ROADMAP.md': roadmap('M002', 'Digest', [{ id: 'S01', title: 'Weekly digest' }]),
    });
    for (const s of [fullState(root), lazyState(root).state]) {
      assert.equal(s.activeMilestone?.id, 'M002');
      assert.equal(s.phase, 'planning');
    }
  });
});
