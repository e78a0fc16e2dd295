// Installs code-server (VS Code server + web workbench) from the npm registry into the cache folder,
// with the Node it wants, also from npm; no install scripts run that would download binaries, and
// the native modules VS Code needs are built against that Node's headers. docs/testing.md says
// why this is how we get a real VS Code on an offline machine.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { installOnce, isReady, log, runQuietly } from './cache-install.mjs';
import { installNode, nodeMajorOf } from './node-runtime.mjs';
import { floorCodeServer, vscodeVersionOf } from './versions.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const cacheDir = path.resolve(process.env.GSD_VSCODE_CACHE ?? path.join(repoRoot, '.vscode-test'));

/**
 * Native modules of the VS Code server, by the names different releases give them: the watchdog
 * became `@vscode/native-watchdog`, and newer releases add `@vscode/sqlite3` (the agent host).
 * kerberos is left out: it needs libkrb5-dev and only serves proxy authentication.
 */
const VSCODE_NATIVE_MODULES = ['@vscode/spdlog', 'node-pty', 'native-watchdog', '@vscode/native-watchdog', '@vscode/deviceid', '@vscode/sqlite3'];

const paths = (version) => {
  const installDir = path.join(cacheDir, `code-server-${version}`);
  const codeServerDir = path.join(installDir, 'node_modules', 'code-server');
  return { installDir, codeServerDir, entry: path.join(codeServerDir, 'out', 'node', 'entry.js') };
};

export function isInstalled(version = floorCodeServer()) {
  const { installDir, entry } = paths(version);
  return isReady(installDir) && fs.existsSync(entry);
}

function npmArgs(args) {
  return [...args, '--no-audit', '--no-fund', '--loglevel=error'];
}

/** Which Node major a code-server release wants, read from its own package.json. */
function wantedNodeMajor(codeServerDir) {
  const pkg = JSON.parse(fs.readFileSync(path.join(codeServerDir, 'package.json'), 'utf8'));
  return nodeMajorOf(pkg.engines?.node);
}

/** The `rg` that `@vscode/ripgrep-universal` (from npm) ships for this machine, installed once into the cache. */
async function universalRipgrep() {
  const dir = path.join(cacheDir, 'vscode-ripgrep-universal');
  await installOnce('ripgrep', dir, '@vscode/ripgrep-universal (rg for VS Code search)', (tmp) => {
    fs.writeFileSync(path.join(tmp, 'package.json'), JSON.stringify({ name: 'gsd-ripgrep', private: true }));
    return runQuietly('ripgrep', 'fetching @vscode/ripgrep-universal', 'npm',
      npmArgs(['install', '--no-save', '--ignore-scripts', '@vscode/ripgrep-universal']), { cwd: tmp });
  });
  return path.join(dir, 'node_modules', '@vscode', 'ripgrep-universal', 'bin', `${process.platform}-${process.arch}`, 'rg');
}

/**
 * VS Code's search runs `rg` from `@vscode/ripgrep/bin` (older releases; its install script would
 * download it) or from `@vscode/ripgrep-universal` (newer releases ship it). Older releases get the
 * machine's `rg`, else the one `@vscode/ripgrep-universal` ships. Also run on installs made before
 * this step existed (they have no `rg`): the copy lands by rename, so a running server never sees half a file.
 */
async function provideRipgrep(vscodeDir) {
  const modules = path.join(vscodeDir, 'node_modules', '@vscode');
  const universal = path.join(modules, 'ripgrep-universal', 'bin', `${process.platform}-${process.arch}`, 'rg');
  if (fs.existsSync(universal)) return `shipped (${path.relative(vscodeDir, universal)})`;
  const legacyBin = path.join(modules, 'ripgrep', 'bin');
  if (!fs.existsSync(path.dirname(legacyBin))) return 'not used by this release';
  const target = path.join(legacyBin, 'rg');
  if (fs.existsSync(target)) return 'present';
  const system = ['/usr/bin/rg', '/usr/local/bin/rg'].find((p) => fs.existsSync(p));
  const source = system ?? (await universalRipgrep());
  fs.mkdirSync(legacyBin, { recursive: true });
  const tmp = `${target}.tmp-${process.pid}`;
  fs.copyFileSync(source, tmp);
  fs.chmodSync(tmp, 0o755);
  fs.renameSync(tmp, target);
  return `copied from ${system ? `the machine's ${system}` : '@vscode/ripgrep-universal from npm'}`;
}

async function build(version, tmp) {
  const scope = `code-server ${version}`;
  fs.writeFileSync(path.join(tmp, 'package.json'), JSON.stringify({ name: 'gsd-vscode-host', private: true }));
  let step = Date.now();
  const took = () => {
    const s = ((Date.now() - step) / 1000).toFixed(1);
    step = Date.now();
    return `${s} s`;
  };
  await runQuietly(scope, `downloading code-server@${version}`, 'npm',
    npmArgs(['install', '--ignore-scripts', '--no-save', `code-server@${version}`]), { cwd: tmp });
  log(scope, `downloaded (${took()})`);
  const codeServerDir = path.join(tmp, 'node_modules', 'code-server');
  const { nodeDir } = await installNode(cacheDir, wantedNodeMajor(codeServerDir));
  // npm and node-gyp run on that Node and build against its headers (not the machine's Node).
  const env = {
    ...process.env,
    PATH: `${path.join(nodeDir, 'bin')}${path.delimiter}${process.env.PATH}`,
    npm_config_nodedir: nodeDir,
    // node-pty's rebuild runs `npx node-gyp`, which must not stop to ask.
    npm_config_yes: 'true',
  };
  step = Date.now();
  const vscodeDir = path.join(codeServerDir, 'lib', 'vscode');
  log(scope, 'installing VS Code server dependencies');
  await runQuietly(scope, 'installing VS Code server dependencies', 'npm', npmArgs(['install', '--omit=dev', '--ignore-scripts']), { cwd: vscodeDir, env });
  await runQuietly(scope, 'installing built-in extension dependencies', 'npm',
    npmArgs(['install', '--omit=dev', '--ignore-scripts']), { cwd: path.join(vscodeDir, 'extensions'), env });
  log(scope, `dependencies installed (${took()})`);

  const natives = VSCODE_NATIVE_MODULES.filter((m) => fs.existsSync(path.join(vscodeDir, 'node_modules', m)));
  for (const m of natives) {
    log(scope, `building ${m}${m === '@vscode/sqlite3' ? ' (about a minute)' : ''}`);
    await runQuietly(scope, `building ${m}`, 'npm', npmArgs(['rebuild', m]), { cwd: vscodeDir, env });
  }
  if (fs.existsSync(path.join(tmp, 'node_modules', 'argon2'))) {
    log(scope, 'building argon2');
    await runQuietly(scope, 'building argon2', 'npm', npmArgs(['rebuild', 'argon2']), { cwd: tmp, env });
  }
  log(scope, `native modules built (${took()})`);
  log(scope, `ripgrep for search: ${await provideRipgrep(vscodeDir)}`);

  // VS Code looks for some modules under node_modules.asar; code-server's own postinstall links it.
  const asar = path.join(vscodeDir, 'node_modules.asar');
  fs.rmSync(asar, { force: true, recursive: true });
  fs.symlinkSync('node_modules', asar);
}

/**
 * Installs code-server `version` (once per cache) and returns how to start it: its entry script,
 * the Node to run it with, and the VS Code version it carries.
 */
export async function installCodeServer(version = floorCodeServer()) {
  const { installDir, codeServerDir, entry } = paths(version);
  await installOnce(`code-server ${version}`, installDir, `code-server ${version} (VS Code ${vscodeVersionOf(version) ?? '?'})`, (tmp) => build(version, tmp));
  if (!fs.existsSync(entry)) throw new Error(`${installDir} has no code-server entry; delete the folder to reinstall`);
  const rg = await provideRipgrep(path.join(codeServerDir, 'lib', 'vscode'));
  if (rg.startsWith('copied')) log(`code-server ${version}`, `ripgrep for search: ${rg}`);
  // An install made by an older script of ours ran on the machine's Node 20; the registry's Node 20 has the same ABI.
  const { nodeBin } = await installNode(cacheDir, wantedNodeMajor(codeServerDir));
  return { version, vscodeVersion: vscodeVersionOf(version), entry, nodeBin, codeServerDir };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { resolveMatrix } = await import('./versions.mjs');
  try {
    for (const { version } of await resolveMatrix(process.argv[2] ?? process.env.GSD_CODE_SERVER_VERSION, cacheDir)) {
      console.log((await installCodeServer(version)).entry);
    }
  } catch (error) {
    console.error(`code-server install failed: ${error.message}`);
    process.exit(1);
  }
}
