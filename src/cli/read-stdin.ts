// What a command reads from stdin, bounded: a hook payload, a tool call for the gate's guard. A
// terminal gives nothing (nobody will send a payload; reading would wait for Ctrl-D), and a payload
// over `maxBytes` is null, never held whole.
export function readStdinBounded(maxBytes: number): Promise<string | null> {
  return new Promise((resolve) => {
    if (process.stdin.isTTY) return resolve(null);
    const chunks: Buffer[] = [];
    let size = 0;
    let tooBig = false;
    process.stdin.on('data', (c: Buffer) => {
      size += c.length;
      if (size > maxBytes) tooBig = true;
      else chunks.push(c);
    });
    process.stdin.on('end', () => resolve(tooBig ? null : Buffer.concat(chunks).toString('utf8')));
    process.stdin.on('error', () => resolve(null));
  });
}
