import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { GsdExtensionApi } from '../../../src/extension';

export const EXTENSION_ID = 'gsd-review-loop.gsd-review-loop';

export async function activateExtension(): Promise<GsdExtensionApi> {
  const ext = vscode.extensions.getExtension<GsdExtensionApi>(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is not installed in this host`);
  return ext.activate();
}

export function labelOf(item: vscode.TreeItem): string {
  return typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
}
