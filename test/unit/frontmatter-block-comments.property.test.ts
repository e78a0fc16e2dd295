// Issue 24 #4: a comment line at the end of our block in a sidecar (`T02-HOOKS.md`) made our next
// write delete the next hook's key line, and that hook's state was lost. The YAML node of our block
// ends after its trailing comments, in the indentation of the next hook's key line; the edit took
// that whole line. Property: sidecars with several hooks' blocks and comment or blank lines at any
// place (any indentation): setting or removing our block keeps every other hook's block, every
// other key and the body, and every line before our block and from the next key on, byte for byte.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { setExtensionBlock } from '../../src/core/parse/frontmatter-block';
import { parseFrontmatter } from '../../src/core/parse/frontmatter';

const OURS = 'review-loop';

const scalar = fc.constantFrom('1', 'T01', 'reviewing', 'true', '"quoted: yes"', "'single'", '2026-11-25T10:00:00Z', '[a, b]');
/** A line of no meaning to YAML: a comment at some indentation, or blank. */
const filler = fc.oneof(
  fc.tuple(fc.constantFrom('', '  ', '    ', '      '), fc.constantFrom('# note', '#', '# - not: a key')).map(([i, c]) => i + c),
  fc.constantFrom('', '  '),
);
/** Lines with fillers slipped in anywhere (before each line, and after the last). */
function withFillers(lines: string[]): fc.Arbitrary<string[]> {
  return fc.array(fc.array(filler, { maxLength: 2 }), { minLength: lines.length + 1, maxLength: lines.length + 1 }).map((fills) => lines.flatMap((l, i) => [...fills[i], l]).concat(fills[lines.length]));
}

/** One hook's block: `  name: scalar`, or `  name:` with a few `    key: value` lines. */
function hookBlock(name: string): fc.Arbitrary<{ name: string; lines: string[] }> {
  return fc.oneof(
    scalar.map((v) => ({ name, lines: [`  ${name}: ${v}`] })),
    fc.uniqueArray(fc.tuple(fc.constantFrom('cycle', 'status', 'notes', 'at'), scalar), { selector: ([k]) => k, minLength: 1, maxLength: 3 }).map((pairs) => ({
      name,
      lines: [`  ${name}:`, ...pairs.map(([k, v]) => `    ${k}: ${v}`)],
    })),
  );
}

const sidecar = fc
  .tuple(
    fc.shuffledSubarray(['my-policy', 'audit', OURS, 'zeta'], { minLength: 2 }).filter((names) => names.includes(OURS)),
    fc.boolean(),
    fc.boolean(),
    fc.constantFrom('\n', '\r\n'),
  )
  .chain(([names, idBefore, noteAfter, eol]) =>
    fc.tuple(fc.tuple(...names.map(hookBlock)), fc.constant(idBefore), fc.constant(noteAfter), fc.constant(eol)).chain(([blocks, before, after, nl]) =>
      withFillers(blocks.flatMap((b) => b.lines)).map((extLines) => {
        const lines = [...(before ? ['id: T02'] : []), 'extensions:', ...extLines, ...(after ? ['note: kept'] : [])];
        return `---${nl}${lines.join(nl)}${nl}---${nl}# Hook state of task M001/S01/T02${nl}`;
      }),
    ),
  );

const value = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }).filter((v) => v !== null && !(typeof v === 'number' && Object.is(v, -0))),
  fc.record({ cycle: fc.nat(5), status: fc.constantFrom('reviewing', 'fixing', 'passed') }).map((r) => ({ ...r })),
);

const indentOf = (line: string) => line.length - line.trimStart().length;
const meaningful = (line: string) => line.trim() !== '' && !line.trimStart().startsWith('#');

/**
 * The lines around our block: those before our key's line, and those from the first line after it
 * that holds a key at our key's indentation or less (the next hook, a top-level key or the fence).
 * Comment and blank lines in between may be taken as ours and are not judged.
 */
function around(text: string): { before: string[]; after: string[] } {
  const lines = text.split(/\r?\n/);
  const at = lines.findIndex((l) => l.trimStart().startsWith(`${OURS}:`));
  const own = indentOf(lines[at]);
  let next = at + 1;
  while (next < lines.length && !(meaningful(lines[next]) && indentOf(lines[next]) <= own)) next++;
  return { before: lines.slice(0, at), after: lines.slice(next) };
}

describe('our block in a sidecar with comment and blank lines anywhere', () => {
  it('the next hook\'s key line after a comment at the end of our block is kept (the case of the issue)', () => {
    const text = '---\nextensions:\n  review-loop:\n    cycle: 1\n    # the reviewer asked for a second look\n  my-policy:\n    checked: true\n---\n# Hook state of task M001/S01/T02\n';
    const set = setExtensionBlock(text, OURS, { cycle: 2 });
    assert.deepEqual((parseFrontmatter(set, 'T02-HOOKS.md').data.extensions as Record<string, unknown>)['my-policy'], { checked: true });
    assert.match(set, /\n {2}my-policy:\n {4}checked: true\n---/);
  });

  it('property: setting or removing our block keeps every other hook, key, body and line around it', () => {
    fc.assert(
      fc.property(sidecar, value, fc.boolean(), (text, v, remove) => {
        const original = parseFrontmatter(text, 'T02-HOOKS.md');
        assert.deepEqual(original.diagnostics, [], JSON.stringify(text));
        const next = setExtensionBlock(text, OURS, remove ? undefined : v);
        const parsed = parseFrontmatter(next, 'T02-HOOKS.md');
        assert.deepEqual(parsed.diagnostics, [], JSON.stringify(next));
        const before = original.data.extensions as Record<string, unknown>;
        const after = (parsed.data.extensions ?? {}) as Record<string, unknown>;
        for (const [hook, block] of Object.entries(before)) {
          if (hook !== OURS) assert.deepEqual(after[hook], block, `${hook} changed: ${JSON.stringify(text)} -> ${JSON.stringify(next)}`);
        }
        assert.deepEqual(after[OURS], remove ? undefined : JSON.parse(JSON.stringify(v)));
        for (const [k, val] of Object.entries(original.data)) if (k !== 'extensions') assert.deepEqual(parsed.data[k], val);
        assert.equal(parsed.body, original.body);
        if (!remove || Object.keys(before).length > 1) {
          const was = around(text);
          const now = next.split(/\r?\n/);
          assert.deepEqual(now.slice(0, was.before.length), was.before, JSON.stringify(next));
          assert.deepEqual(now.slice(now.length - was.after.length), was.after, JSON.stringify(next));
        }
      }),
      { numRuns: 600 },
    );
  });
});
