// Where the panel's state comes from, said in the view's title bar (TreeView.description): markdown,
// GSD-2's database, the successor's layout, or the markdown standing in for a database this runtime
// cannot read. A fallback also gets its reason as the view's message, above the tree.
import type { GsdWorkspace } from './gsd-workspace';

export interface SourceLabel {
  description: string | undefined;
  message: string | undefined;
}

export function sourceLabel(workspace: GsdWorkspace): SourceLabel {
  const sources = workspace.list().map((p) => ({ name: p.folder.name, source: workspace.state(p).source }));
  if (sources.length === 0) return { description: undefined, message: undefined };
  const description = sources.length === 1 ? sources[0].source.label : sources.map((s) => `${s.name}: ${s.source.label}`).join(' · ');
  const fallbacks = sources.filter((s) => s.source.fallback && s.source.kind !== s.source.projectKind);
  const message = fallbacks.length ? fallbacks.map((s) => (sources.length > 1 ? `${s.name}: ${s.source.fallback}` : s.source.fallback)).join('\n') : undefined;
  return { description, message };
}
