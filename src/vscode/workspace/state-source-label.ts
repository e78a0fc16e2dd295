// Where the panel's state comes from: markdown, GSD-2's database, the successor's layout, or the
// markdown standing in for a database this runtime cannot read. Said in the view's description (the
// title bar, where VS Code shows it) and, for anything but a plain markdown project, as the view's
// message above the tree, with the reason when it is a fallback.
import type { GsdWorkspace } from './gsd-workspace';

export interface SourceLabel {
  description: string | undefined;
  message: string | undefined;
}

export function sourceLabel(workspace: GsdWorkspace): SourceLabel {
  const projects = workspace.list();
  // A successor project's header row already says where its state came from and that it is
  // read-only: the view's header does not say it again.
  const sources = projects.map((p) => ({ name: p.folder.name, source: workspace.shownState(p).source })).filter((s) => !s.source.readOnly);
  if (sources.length === 0) return { description: undefined, message: undefined };
  const description = [...new Set(sources.map((s) => s.source.label))].join(' · ');
  const lines = sources
    .filter((s) => s.source.kind !== 'markdown' || s.source.projectKind !== 'markdown' || s.source.fallback)
    .map((s) => `${sources.length > 1 ? `${s.name}: ` : ''}State from ${s.source.label}.${s.source.fallback ? ` ${s.source.fallback}` : ''}`);
  return { description, message: lines.length ? lines.join('\n') : undefined };
}
