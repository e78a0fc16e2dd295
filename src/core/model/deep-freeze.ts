// What a hook is handed cannot be changed by it: a state or decision frozen all the way down, so one
// hook cannot alter what the next one, or the panel, reads. Already-frozen parts are not walked again.

export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
