// What a hook is handed cannot be changed by it: a state or decision frozen all the way down, so one
// hook cannot alter what the next one, or the panel, reads. Already-frozen parts are not walked again.

export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    // Indexed, not for-of: in a fresh process this runs as cold code, where for-of allocated an
    // iterator result per value (about 130 KB of what `next --json` allocates on 10,000 tasks).
    // Object.values for arrays too: it also holds an array's own named properties.
    const values = Object.values(value);
    for (let i = 0; i < values.length; i++) deepFreeze(values[i]);
  }
  return value;
}
