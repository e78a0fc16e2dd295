// Installs code-server (VS Code server + web workbench) from the npm registry into a cache folder,
// without the install scripts that would download binaries, then builds the native modules VS Code
// needs. DESIGN.md section 7 explains why this is how we get a real VS Code on an offline machine.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CODE_SERVER_VERSION = '4.100.3';
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const cacheDir = path.resolve(process.env.GSD_VSCODE_CACHE ?? path.join(repoRoot, '.vscode-test'));
const installDir = path.join(cacheDir, `code-server-${CODE_SERVER_VERSION}`);
const readyMarker = path.join(installDir, '.ready');
export const codeServerDir = path.join(installDir, 'node_modules', 'code-server');
export const codeServerEntry = path.join(codeServerDir, 'out', 'node', 'entry.js');

function npm(args, cwd, extraEnv = {}) {
  execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd,
    stdio: ['ignore', 'inherit', 'inherit'],
    // npm_config_yes: node-pty's rebuild runs `npx node-gyp`, which must not stop to ask.
    env: { ...process.env, npm_config_yes: 'true', ...extraEnv },
  });
}

function log(message) {
  process.stderr.write(`[code-server] ${message}\n`);
}

export function isInstalled() {
  return fs.existsSync(readyMarker) && fs.existsSync(codeServerEntry);
}

export function installCodeServer() {
  if (isInstalled()) return codeServerEntry;
  if (process.versions.node.split('.')[0] !== '20') {
    throw new Error(`code-server ${CODE_SERVER_VERSION} needs Node 20; this is Node ${process.versions.node}.`);
  }
  const started = Date.now();
  log(`installing code-server ${CODE_SERVER_VERSION} into ${installDir} (once; later runs reuse it)`);
  fs.mkdirSync(installDir, { recursive: true });
  fs.writeFileSync(path.join(installDir, 'package.json'), JSON.stringify({ name: 'gsd-vscode-host', private: true }));
  npm(['install', '--ignore-scripts', '--no-save', `code-server@${CODE_SERVER_VERSION}`], installDir);

  const vscodeDir = path.join(codeServerDir, 'lib', 'vscode');
  log('installing VS Code server dependencies');
  npm(['install', '--omit=dev', '--ignore-scripts'], vscodeDir);
  npm(['install', '--omit=dev', '--ignore-scripts'], path.join(vscodeDir, 'extensions'));

  log('building native modules (spdlog, node-pty, native-watchdog, deviceid, argon2)');
  // kerberos is left out: it needs libkrb5-dev and only serves proxy authentication.
  npm(['rebuild', '@vscode/spdlog', 'node-pty', 'native-watchdog', '@vscode/deviceid'], vscodeDir);
  npm(['rebuild', 'argon2'], installDir);

  // @vscode/ripgrep's postinstall downloads a binary; use Debian's rg instead when there is one.
  const rgBin = path.join(vscodeDir, 'node_modules', '@vscode', 'ripgrep', 'bin');
  const systemRg = ['/usr/bin/rg', '/usr/local/bin/rg'].find((p) => fs.existsSync(p));
  if (systemRg && fs.existsSync(path.dirname(rgBin))) {
    fs.mkdirSync(rgBin, { recursive: true });
    fs.copyFileSync(systemRg, path.join(rgBin, 'rg'));
    fs.chmodSync(path.join(rgBin, 'rg'), 0o755);
  } else {
    log('no ripgrep on this machine: workspace search will not work in the test host (tests do not need it)');
  }

  // VS Code looks for some modules under node_modules.asar; code-server's own postinstall links it.
  const asar = path.join(vscodeDir, 'node_modules.asar');
  fs.rmSync(asar, { force: true, recursive: true });
  fs.symlinkSync('node_modules', asar);

  fs.writeFileSync(readyMarker, new Date().toISOString());
  log(`installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return codeServerEntry;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    console.log(installCodeServer());
  } catch (error) {
    console.error(`code-server install failed: ${error.message}`);
    process.exit(1);
  }
}
