// The terminal target writes the prompt to a file named after the unit and names that file on the
// terminal's command line. A unit's id comes from the project: a GSD-2 or successor `gsd.db` holds
// any text there. Suspected (issue 24): shell text in an id could run in the terminal, through the
// file name. Found:
// - the file name kept the id's characters, so POSIX quoting carried them to the shell, and in a
//   replacement string `$'` and `` $` `` pasted parts of the user's command in (sh ran another command);
// - on Windows a `$`, `%` or `"` in an id made every terminal dispatch of that unit fail;
// - PowerShell (pwsh on Linux and macOS too) takes `’` for a quote, so POSIX quoting of an id with
//   one let the rest of it run there.
// Now the name keeps only letters, digits, `.`, `_` and `-`, the path is put in as it is, and a
// PowerShell terminal gets PowerShell's quoting. POSIX shells are run for real; this machine has no
// PowerShell, so its rule is checked as about_Quoting_Rules states it.
import './helpers/use-vscode-stand-in';
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import type { DispatchDecision } from '../../src/core/hooks/engine/middleware-types';
import { renderCommand, writePromptFile } from '../../src/vscode/dispatch/dispatch-targets';

const HOSTILE_IDS = [
  "M001/S01/T01$'",
  'M001/S01/T01$`',
  'M001/S01/T01$&',
  'M001/S01/T01$(touch /tmp/gsd-dispatch-pwned)',
  'M001/S01/T01`touch /tmp/gsd-dispatch-pwned`',
  "M001/S01/T01’; touch /tmp/gsd-dispatch-pwned; ’",
  "M001/S01/T01'; touch /tmp/gsd-dispatch-pwned; '",
  'M001/S01/T01%PATH%"&calc',
  'M001/S01/T01\nrm -rf x',
  '../../../../tmp/gsd-dispatch-escape',
];

const shells = ['/bin/sh', '/bin/dash', '/bin/bash'].filter((s) => fs.existsSync(s));

function decision(unitId: string): DispatchDecision {
  return { unitType: 'execute-task', unitId, prompt: `Execute ${unitId}\n` } as DispatchDecision;
}

describe('shell text in a unit id never reaches the terminal as shell text', () => {
  let gsdDir: string;
  beforeEach(() => {
    gsdDir = path.join(fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-dispatch-shell-'))), '.gsd');
    fs.mkdirSync(gsdDir);
  });
  afterEach(() => fs.rmSync(path.dirname(gsdDir), { recursive: true, force: true }));

  it('a POSIX shell reads the command with exactly the prompt file in it, and runs nothing else', () => {
    assert.ok(shells.length > 0, 'no POSIX shell on this machine');
    // The user's configured command, with text after the placeholder (which `$'` used to paste in).
    const template = "printf '%s\\n' {promptFile} '<end>'";
    for (const id of HOSTILE_IDS) {
      const file = writePromptFile(gsdDir, decision(id));
      assert.equal(fs.readFileSync(file, 'utf8'), `Execute ${id}\n`);
      assert.equal(path.dirname(file), path.join(gsdDir, 'gsd-review-loop', 'prompts'), `${JSON.stringify(id)} put the file elsewhere`);
      for (const shell of shells) {
        const out = execFileSync(shell, ['-c', renderCommand(template, file, 'linux')], { encoding: 'utf8' });
        assert.equal(out, `${file}\n<end>\n`, `${shell}, id ${JSON.stringify(id)}`);
      }
    }
    assert.equal(fs.existsSync('/tmp/gsd-dispatch-pwned'), false);
  });

  it('on Windows (cmd.exe or PowerShell) a hostile id still dispatches, with a plain quoted name', () => {
    for (const id of HOSTILE_IDS) {
      const file = writePromptFile(gsdDir, decision(id));
      const command = renderCommand('claude -p {promptFile}', file, 'win32');
      assert.equal(command, `claude -p "${file}"`, JSON.stringify(id));
    }
  });

  it('whatever the id, the file name holds only letters, digits, ".", "_" and "-" (literal in every shell)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (id) => {
        const name = path.basename(writePromptFile(gsdDir, decision(id)));
        return /^[A-Za-z0-9._-]+$/.test(name) && name.endsWith('.md');
      }),
      { numRuns: 100 },
    );
  });

  describe('a PowerShell terminal (pwsh on any OS, Windows PowerShell)', () => {
    // about_Quoting_Rules: nothing expands inside single quotes, a quote inside is written twice;
    // about_Parsing: ‘ ’ ‚ ‛ are single quotes to PowerShell as well.
    const cases: Array<[string, string]> = [
      ["/home/o'brien/p.md", "'/home/o''brien/p.md'"],
      ['/home/jo/say ’hi’/p.md', "'/home/jo/say ’’hi’’/p.md'"],
      ['/home/jo/$env:HOME `n $(calc)/p.md', "'/home/jo/$env:HOME `n $(calc)/p.md'"],
      ['C:\\Users\\Jo Doe\\p.md', "'C:\\Users\\Jo Doe\\p.md'"],
    ];
    for (const shell of ['/usr/bin/pwsh', '/opt/microsoft/powershell/7/pwsh', 'C:\\Program Files\\PowerShell\\7\\pwsh.exe', 'C:\\WINDOWS\\System32\\WindowsPowerShell\\v1.0\\powershell.exe']) {
      it(`quotes by PowerShell's rules when the terminal's shell is ${shell}`, () => {
        const platform = shell.startsWith('C:') ? 'win32' : 'linux';
        for (const [file, quoted] of cases) assert.equal(renderCommand('claude -p {promptFile}', file, platform, shell), `claude -p ${quoted}`, file);
      });
    }

    it('bash, zsh and cmd.exe keep their own quoting', () => {
      assert.equal(renderCommand('x {promptFile}', "/a/o'b.md", 'linux', '/bin/bash'), `x '/a/o'\\''b.md'`);
      assert.equal(renderCommand('x {promptFile}', '/a/b.md', 'darwin', '/bin/zsh'), "x '/a/b.md'");
      assert.equal(renderCommand('x {promptFile}', 'C:\\a b\\p.md', 'win32', 'C:\\WINDOWS\\System32\\cmd.exe'), 'x "C:\\a b\\p.md"');
    });
  });
});
