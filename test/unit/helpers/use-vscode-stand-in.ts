// Makes `require('vscode')` load ./vscode-stand-in. Import it before any module of src/vscode.
import Module from 'node:module';

const resolve = (Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string })._resolveFilename;
(Module as unknown as { _resolveFilename: typeof resolve })._resolveFilename = function (request: string, ...rest: unknown[]) {
  return request === 'vscode' ? require.resolve('./vscode-stand-in') : resolve.call(this, request, ...rest);
};
