import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { GsdExtensionApi } from '../../../src/extension';

export const EXTENSION_ID = 'gsd-review-loop.gsd-review-loop';

export async function activateExtension(): Promise<GsdExtensionApi> {
  const ext = vscode.extensions.getExtension<GsdExtensionApi>(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is not installed in this host`);
  const api = await ext.activate();
  // The projects' files are read after activation, a step at a time; the suites check what shows once read
  // (the panel's first look while reading has its own test).
  await api.workspace.whenRead();
  return api;
}

export function labelOf(item: vscode.TreeItem): string {
  return typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
}
