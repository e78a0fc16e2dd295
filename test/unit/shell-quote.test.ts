// One quoting helper for the installer's hook commands and the terminal target. POSIX quoting is
// checked by the shells themselves (each quoted word, read by sh, dash and bash, must come back
// byte for byte); the Windows rules by the documented behaviour of cmd.exe and PowerShell, which
// this machine has neither of: double quotes group a path with spaces, and the characters either
// shell expands inside double quotes are refused rather than passed on.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { platformDialect, quotePosix, quoteWindows, shellQuote, UnquotableError } from '../../src/core/shell/shell-quote';

const HOSTILE = [
  '/home/jo/My Projects/.gsd/runtime/prompt.md',
  "/home/o'brien/it's here.md",
  "''",
  '$(touch /tmp/gsd-quote-pwned)',
  '`id`',
  '$HOME ${PATH} $1 $@',
  'a\\b\\\\c\\',
  '*.md ?.md [ab].md ~',
  'line one\nline two',
  'tab\there; echo no & echo no | cat > x < y',
  '"double" \'single\' #hash !bang',
  'ünïcödé ✓ 日本',
  '-n',
  '',
];

const shells = ['/bin/sh', '/bin/dash', '/bin/bash'].filter((s) => fs.existsSync(s));

describe('shell quoting', () => {
  describe('POSIX (Shell Command Language 2.2.2: single quotes keep every character)', () => {
    it('gives back each value unchanged through sh, dash and bash', () => {
      assert.ok(shells.length > 0, 'no POSIX shell on this machine');
      for (const shell of shells) {
        for (const value of HOSTILE) {
          const out = execFileSync(shell, ['-c', `printf '%s' ${quotePosix(value)}`], { encoding: 'utf8' });
          assert.equal(out, value, `${shell}: ${JSON.stringify(value)}`);
        }
      }
      assert.equal(fs.existsSync('/tmp/gsd-quote-pwned'), false);
    });

    it('keeps a quoted value one word, even when empty or full of spaces', () => {
      for (const value of ['', 'a b  c', '  ']) {
        const out = execFileSync('/bin/sh', ['-c', `set -- ${quotePosix(value)} end; echo $#`], { encoding: 'utf8' });
        assert.equal(out.trim(), '2', JSON.stringify(value));
      }
    });
  });

  describe('Windows command lines (cmd.exe and PowerShell)', () => {
    it('puts a path with spaces and backslashes in double quotes, as both shells group it', () => {
      assert.equal(quoteWindows('C:\\Users\\Jo Doe\\.copilot\\hooks\\gsd-review-loop.ps1'), '"C:\\Users\\Jo Doe\\.copilot\\hooks\\gsd-review-loop.ps1"');
      assert.equal(quoteWindows("C:\\o'brien\\it's.md"), '"C:\\o\'brien\\it\'s.md"');
      assert.equal(quoteWindows('D:\\a&b (1)\\x^y.md'), '"D:\\a&b (1)\\x^y.md"');
    });

    it('refuses what either shell would expand or end the string at, with a clear error', () => {
      const refused: Array<[string, string]> = [
        ['C:\\100%PATH%\\p.md', '%'], // cmd: %VAR% expands inside quotes
        ['C:\\$env:USERNAME\\p.md', '$'], // PowerShell: $name and $(…) expand inside double quotes
        ['C:\\a`nb\\p.md', '`'], // PowerShell: backtick escapes
        ['C:\\say “hi”\\p.md', '“'], // PowerShell: typographic double quotes end the string
        ['C:\\"quoted"\\p.md', '"'],
        ['C:\\two\nlines', '\\n'],
      ];
      for (const [value, shown] of refused) {
        assert.throws(() => quoteWindows(value), (e: unknown) => e instanceof UnquotableError && e.message.includes(`holds ${shown}, which a Windows command line`), value);
      }
    });
  });

  it('picks the dialect by platform (the terminal target quotes the prompt file with it)', () => {
    assert.equal(platformDialect('win32'), 'windows');
    assert.equal(platformDialect('linux'), 'posix');
    assert.equal(platformDialect('darwin'), 'posix');
    assert.equal(shellQuote("it's", 'posix'), `'it'\\''s'`);
    assert.equal(shellQuote('C:\\My Project\\x.md', platformDialect('win32')), '"C:\\My Project\\x.md"');
  });
});
