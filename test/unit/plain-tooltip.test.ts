import * as assert from 'node:assert/strict';
import { plainTooltipLine } from '../../src/vscode/codelens/plain-tooltip';

describe('plainTooltipLine (CodeLens tooltips are plain text)', () => {
  it('turns code spans into quoted text and drops bold marks', () => {
    assert.equal(plainTooltipLine('Refuse `rule add` when the same pattern already exists'), 'Refuse "rule add" when the same pattern already exists');
    assert.equal(plainTooltipLine('Keep ``a `tick` inside`` as is, **really**'), 'Keep "a `tick` inside" as is, really');
  });
  it('leaves text without markdown and an unclosed backtick alone', () => {
    assert.equal(plainTooltipLine('Keep CRLF line endings of rules.yaml'), 'Keep CRLF line endings of rules.yaml');
    assert.equal(plainTooltipLine('a lone ` stays'), 'a lone ` stays');
  });
});
