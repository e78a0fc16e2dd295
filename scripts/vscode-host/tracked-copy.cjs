// Copies a folder of the repository as git has it (its tracked files, staged content), never the
// working folder itself: running the CLI on sample-project/ writes runtime files and sidecars there,
// and the tests and the demo must not see them. CommonJS, so the unit tests (tsx) and the host
// scripts (ESM) share it.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const repoRoot = path.resolve(__dirname, '../..');

function gitFiles(relDir) {
  try {
    const out = execFileSync('git', ['ls-files', '-z', '--', relDir], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return out.split('\0').filter(Boolean);
  } catch {
    return undefined; // not a git checkout (an unpacked tarball): the folder is all there is
  }
}

/** Copies `relDir` (relative to the repository) to `dest`, which must not exist or be empty. */
function copyTracked(relDir, dest) {
  if (fs.existsSync(dest)) fs.rmdirSync(dest);
  const files = gitFiles(relDir);
  if (!files || files.length === 0) {
    fs.cpSync(path.join(repoRoot, relDir), dest, { recursive: true });
    return;
  }
  // checkout-index writes the staged content under a prefix; the folder is then moved into place.
  const staging = `${dest}.staging`;
  execFileSync('git', ['checkout-index', '-z', '--stdin', `--prefix=${staging}${path.sep}`], {
    cwd: repoRoot,
    input: files.join('\0'),
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  fs.renameSync(path.join(staging, relDir), dest);
  fs.rmSync(staging, { recursive: true, force: true });
}

module.exports = { copyTracked };
