// `npm run package`'s .vsix, installed the way users install it: code-server's own
// `--install-extension` (code-server is an Open VSX–based editor, so this is also that editor's
// extension folder layout: `<publisher>.<name>-<version>/` plus `extensions.json`), on the floor of
// engines.vscode and on the latest code-server. Checks what the editor then lists and what is on disk.
// Prints mocha-style counts so `npm test` counts each check.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheDir, installCodeServer } from '../vscode-host/code-server-install.mjs';
import { resolveMatrix } from '../vscode-host/versions.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
const vsix = path.join(repoRoot, 'dist', 'gsd-review-loop.vsix');
const id = `${pkg.publisher}.${pkg.name}`;
let passed = 0;
let failed = 0;
const check = (label, ok, detail = '') => {
  if (ok) passed++;
  else failed++;
  console.log(`  ${ok ? '✔' : '✖'} ${label}${ok || !detail ? '' : `\n      ${detail}`}`);
};

execFileSync('npm', ['run', '-s', 'package'], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'], timeout: 900_000 });
check(`npm run package wrote ${path.relative(repoRoot, vsix)}${fs.existsSync(vsix) ? ` (${Math.round(fs.statSync(vsix).size / 1024)} KB)` : ''}`, fs.existsSync(vsix));
const listed = execFileSync('npx', ['vsce', 'ls', '--no-dependencies'], { cwd: repoRoot, encoding: 'utf8', timeout: 600_000 }).trim().split('\n');
const mustShip = ['package.json', pkg.main.replace(/^\.\//, ''), 'dist/cli.js', 'dist/cli-main.js', 'dist/cli-agent-hooks.js', 'dist/cli-gate.js', 'dist/hook.js', pkg.icon, 'README.md', 'LICENSE', 'CHANGELOG.md'];
check('vsce ls ships what runs', mustShip.every((f) => listed.includes(f)), `missing: ${mustShip.filter((f) => !listed.includes(f)).join(', ')}`);
// A shipped document's relative links and images must lead to a shipped file: the extension's page
// shows README.md from the installed folder, and its links open the docs there.
const shipped = new Set(listed);
const deadLinks = listed
  .filter((f) => f.endsWith('.md'))
  .flatMap((doc) => {
    const text = fs.readFileSync(path.join(repoRoot, doc), 'utf8');
    const targets = [...text.matchAll(/\]\(([^)\s]+)\)|<img[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1] ?? m[2]);
    return targets
      .filter((t) => !/^[a-z][a-z0-9+.-]*:|^#/i.test(t))
      .map((t) => path.posix.normalize(path.posix.join(path.posix.dirname(doc), t.split('#')[0])))
      .filter((t) => !shipped.has(t))
      .map((t) => `${doc} → ${t}`);
  });
check('every relative link and image of a shipped document is shipped', deadLinks.length === 0, deadLinks.join(', '));
check('vsce ls ships no sources, tests, maps or node_modules', !listed.some((f) => /^(src|test|scripts|bench|node_modules)\/|\.map$|\.ts$/.test(f) && !f.endsWith('.d.ts')), listed.filter((f) => /^(src|test|scripts|bench|node_modules)\/|\.map$/.test(f)).join(', '));

for (const { version } of await resolveMatrix(process.env.GSD_CODE_SERVER_VERSION, cacheDir)) {
  const server = await installCodeServer(version);
  console.log(`\n.vsix on VS Code ${server.vscodeVersion} (code-server ${version})`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-vsix-'));
  try {
    const extensionsDir = path.join(work, 'extensions');
    const cli = (...args) => execFileSync(server.nodeBin, [server.entry, '--extensions-dir', extensionsDir, '--user-data-dir', path.join(work, 'data'), ...args], { encoding: 'utf8', timeout: 600_000, stdio: ['ignore', 'pipe', 'pipe'] });
    cli('--install-extension', vsix);
    const list = cli('--list-extensions', '--show-versions');
    check(`--list-extensions names ${id}@${pkg.version}`, list.split('\n').includes(`${id}@${pkg.version}`), list.trim());
    const folder = path.join(extensionsDir, `${id}-${pkg.version}`);
    check(`installed as ${path.basename(folder)}/ with its entry point`, fs.existsSync(path.join(folder, pkg.main)) && fs.existsSync(path.join(folder, 'dist', 'hook.js')));
    const registry = JSON.parse(fs.readFileSync(path.join(extensionsDir, 'extensions.json'), 'utf8'));
    check('extensions.json records it', registry.some((e) => e.identifier?.id === id && e.version === pkg.version));
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
console.log(`\n  ${passed} passing`);
if (failed) console.log(`  ${failed} failing`);
process.exit(failed ? 1 : 0);
