/**
 * Checks on a parsed JSON value before any schema sees it: keys that name an object's prototype machinery
 * (`__proto__`, `constructor`, `prototype`) are refused rather than dropped, and nesting is bounded. Iterative,
 * so a hostile depth cannot overflow the stack.
 */
export const PROTOTYPE_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype'];
/** Deeper than any request the API defines, by far. */
export const MAX_JSON_DEPTH = 32;

export type JsonShapeProblem =
  | { kind: 'prototype_key'; path: Array<string | number> }
  | { kind: 'too_deep'; path: Array<string | number> };

export function jsonShapeProblem(value: unknown, maxDepth = MAX_JSON_DEPTH): JsonShapeProblem | null {
  const stack: Array<{ value: unknown; path: Array<string | number> }> = [{ value, path: [] }];
  while (stack.length > 0) {
    const { value: current, path } = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (path.length >= maxDepth) return { kind: 'too_deep', path };
    if (Array.isArray(current)) {
      current.forEach((item, index) => stack.push({ value: item, path: [...path, index] }));
      continue;
    }
    for (const key of Object.keys(current)) {
      if (PROTOTYPE_KEYS.includes(key)) return { kind: 'prototype_key', path: [...path, key] };
      stack.push({ value: (current as Record<string, unknown>)[key], path: [...path, key] });
    }
  }
  return null;
}
