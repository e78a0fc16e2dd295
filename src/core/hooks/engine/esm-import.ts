// Loading an ES module (a user hook's index.mjs) from the CommonJS bundles. The CLI launcher runs its
// bundle from a V8 code cache, and functions read from such a cache lose the loader that `import()`
// needs ("A dynamic import callback was not specified"); the launcher then lends its own `import()`
// under this symbol. Everywhere else `import()` is used as it is.
export const ESM_IMPORT = Symbol.for('gsd-review-loop.esm-import');

export type EsmImport = (url: string) => Promise<unknown>;

export function importEsm(url: string): Promise<unknown> {
  const lent = (globalThis as Record<symbol, unknown>)[ESM_IMPORT];
  return typeof lent === 'function' ? (lent as EsmImport)(url) : import(url);
}
