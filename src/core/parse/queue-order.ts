// `.gsd/QUEUE-ORDER.json` (`{"order": ["M003", "M001"], "updatedAt": …}`): the order the user gave
// GSD's queue. Listed milestones come first in that order, the rest after them by number; listed ids
// without a folder are ignored. A file GSD cannot use is ignored by GSD too, so it only warns here.
import type { Diagnostic } from '../model/types';

export const QUEUE_ORDER_FILE = 'QUEUE-ORDER.json';

export interface QueueOrder {
  order: string[] | null;
  diagnostics: Diagnostic[];
}

export function parseQueueOrder(text: string, file: string): QueueOrder {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { order: null, diagnostics: [{ file, line: 1, severity: 'warning', message: `not valid JSON (${why}); milestones keep their numeric order` }] };
  }
  const order = data !== null && typeof data === 'object' ? (data as { order?: unknown }).order : undefined;
  if (!Array.isArray(order)) {
    return { order: null, diagnostics: [{ file, line: 1, severity: 'warning', message: 'has no "order" list; milestones keep their numeric order' }] };
  }
  // GSD matches entries against folder ids as they are: anything but a string never matches.
  return { order: order.filter((id): id is string => typeof id === 'string'), diagnostics: [] };
}

/** Milestones in queue order: listed ids first as listed, then the others in their given order. */
export function sortByQueueOrder<T extends { id: string }>(items: readonly T[], order: readonly string[] | null): T[] {
  if (!order) return [...items];
  const byId = new Map<string, T>();
  for (const item of items) if (!byId.has(item.id)) byId.set(item.id, item);
  const listed: T[] = [];
  for (const id of order) {
    const item = byId.get(id);
    if (item) {
      listed.push(item);
      byId.delete(id);
    }
  }
  return [...listed, ...items.filter((item) => byId.get(item.id) === item)];
}
