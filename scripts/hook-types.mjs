// The hook authors' declarations: the front door (src/core/hooks/api.ts) as one self-contained
// `.d.ts`, shipped as dist/gsd-hooks.d.ts. Used by esbuild.mjs and by the type-level unit test, so
// the test checks exactly what the build ships.
import { generateDtsBundle } from 'dts-bundle-generator';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const HOOK_TYPES_ENTRY = path.join(root, 'src', 'core', 'hooks', 'api.ts');
export const HOOK_TYPES_FILE = 'gsd-hooks.d.ts';

/** The bundled declarations' text. Types that the front door does not export stay unexported. */
export function bundleHookTypes() {
  const [text] = generateDtsBundle([{ filePath: HOOK_TYPES_ENTRY, output: { exportReferencedTypes: false, noBanner: true } }], {
    preferredConfigPath: path.join(root, 'tsconfig.json'),
  });
  return `// GSD Review Loop: types for hook authors (generated from src/core/hooks/api.ts; see README "Hooks").\n${text}`;
}
