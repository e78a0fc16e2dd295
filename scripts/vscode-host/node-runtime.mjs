// The Node a code-server wants (its package.json `engines.node`), from the npm registry: the
// `node-<platform>-<arch>` packages carry `bin/node` and the `include/node` headers, so the same
// folder runs code-server and serves node-gyp as `--nodedir` for its native modules.
import fs from 'node:fs';
import path from 'node:path';
import { installOnce, runQuietly } from './cache-install.mjs';

export function nodePackageName() {
  return `node-${process.platform}-${process.arch}`;
}

/** `engines.node` of code-server is a major ("20", "22", "24") or a range starting with one. */
export function nodeMajorOf(enginesNode) {
  const m = /(\d+)/.exec(String(enginesNode ?? ''));
  if (!m) throw new Error(`cannot tell which Node code-server wants from engines.node "${enginesNode}"`);
  return m[1];
}

/** Installs (once) the newest Node of that major into the cache; returns its folder (bin/, include/). */
export async function installNode(cacheDir, major) {
  const name = nodePackageName();
  const finalDir = path.join(cacheDir, `${name}-${major}`);
  const nodeDir = path.join(finalDir, 'node_modules', name);
  await installOnce('node', finalDir, `Node ${major} (${name}@${major} from npm)`, async (tmp) => {
    fs.writeFileSync(path.join(tmp, 'package.json'), JSON.stringify({ name: 'gsd-node-runtime', private: true }));
    await runQuietly('node', `downloading ${name}@${major}`, 'npm',
      ['install', '--no-save', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', `${name}@${major}`], { cwd: tmp });
    const bin = path.join(tmp, 'node_modules', name, 'bin', 'node');
    if (!fs.existsSync(bin)) throw new Error(`${name}@${major} has no bin/node`);
    fs.chmodSync(bin, 0o755);
  });
  return { nodeDir, nodeBin: path.join(nodeDir, 'bin', 'node') };
}
