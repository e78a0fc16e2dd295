// `<!-- gsd:state-version=R:E -->`: the stamp the successor's renderer appends as the last line of
// most files it writes (gsd-pi markdown-renderer.ts, stampProjectionContent): R the project
// revision, E the authority epoch the file was rendered at.

export interface StateVersionStamp {
  revision: number;
  authorityEpoch: number;
}

// Only at the end of the file, as GSD writes it (TRAILING_STATE_VERSION_STAMP_RE there).
const TRAILING_STAMP = /<!-- gsd:state-version=(\d{1,15}):(\d{1,15}) -->[ \t]*\r?\n?$/;

export function readStateVersionStamp(text: string): StateVersionStamp | null {
  // The stamp is short and last: look at the tail only, whatever the file's size.
  const m = TRAILING_STAMP.exec(text.length > 200 ? text.slice(-200) : text);
  return m ? { revision: Number(m[1]), authorityEpoch: Number(m[2]) } : null;
}
