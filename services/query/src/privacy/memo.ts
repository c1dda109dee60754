/** Looks each id up once per request. */
export function memo<T>(load: (id: string) => Promise<T>): (id: string) => Promise<T> {
  const seen = new Map<string, Promise<T>>();
  return (id) => {
    let found = seen.get(id);
    if (!found) seen.set(id, (found = load(id)));
    return found;
  };
}
