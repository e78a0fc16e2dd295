// Text from the project's files on the surfaces that render markdown and those that do not: code
// spans stay code (or read as quotes), nothing shows a raw backtick or asterisk.
import * as assert from 'node:assert/strict';
import MarkdownIt from 'markdown-it';
import { markdownText, plainText } from '../../src/vscode/panel/project-text';

// VS Code renders MarkdownString with markdown-it: the check is what a reader sees, as HTML.
const render = (md: string) => new MarkdownIt().renderInline(md);

describe('project text on plain surfaces (tree labels, CodeLens tooltips)', () => {
  it('turns code spans into quoted text and drops bold marks', () => {
    assert.equal(plainText('Refuse `rule add` when the same pattern already exists'), 'Refuse "rule add" when the same pattern already exists');
    assert.equal(plainText('Keep ``a `tick` inside`` as is, **really**'), 'Keep "a `tick` inside" as is, really');
  });
  it('leaves text without markdown and an unclosed backtick alone', () => {
    assert.equal(plainText('Keep CRLF line endings of rules.yaml'), 'Keep CRLF line endings of rules.yaml');
    assert.equal(plainText('a lone ` stays'), 'a lone ` stays');
  });
});

describe('project text on markdown surfaces (tooltips, comments)', () => {
  it('renders code spans as code and shows everything else as written', () => {
    assert.equal(render(markdownText('Refuse `rule add` when *the* pattern exists')), 'Refuse <code>rule add</code> when *the* pattern exists');
    assert.equal(render(markdownText('`rule remove` of a missing pattern exits 0')), '<code>rule remove</code> of a missing pattern exits 0');
  });
  it('keeps a code span holding backticks, and a lone backtick, as written', () => {
    assert.equal(render(markdownText('Keep ``a `tick` inside`` here')), 'Keep <code>a `tick` inside</code> here');
    assert.equal(render(markdownText('a lone ` stays, [not a link](x) <b>')), 'a lone ` stays, [not a link](x) &lt;b&gt;');
  });
});
