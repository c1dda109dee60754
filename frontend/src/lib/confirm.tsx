import { Suspense, createContext, lazy, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { ConfirmOptions } from './confirmOptions';

export type { ConfirmOptions };

const loadConfirmDialog = () => import('./ConfirmDialog');
const ConfirmDialog = lazy(async () => ({ default: (await loadConfirmDialog()).ConfirmDialog }));

type Ask = (options: ConfirmOptions) => Promise<boolean>;

const ConfirmContext = createContext<Ask | null>(null);

/** In-app confirmation instead of the browser's confirm(): `if (await confirm({...})) ...`. */
export function useConfirm(): Ask {
  const ask = useContext(ConfirmContext);
  // A screen that may ask fetches the dialog as it opens, so a question asked later (even offline) shows at once.
  useEffect(() => void loadConfirmDialog().catch(() => {}), []);
  if (!ask) throw new Error('useConfirm needs a ConfirmProvider');
  return ask;
}

export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [options, setOptions] = useState<ConfirmOptions | null>(null);
  const [everAsked, setEverAsked] = useState(false);
  const resolver = useRef<((answer: boolean) => void) | null>(null);
  const ask = useCallback<Ask>(
    (next) =>
      new Promise<boolean>((resolve) => {
        resolver.current?.(false);
        resolver.current = resolve;
        setEverAsked(true);
        setOptions(next);
      }),
    [],
  );
  const answer = useCallback((value: boolean) => {
    resolver.current?.(value);
    resolver.current = null;
    setOptions(null);
  }, []);
  const value = useMemo(() => ask, [ask]);
  return (
    <ConfirmContext.Provider value={value}>
      {children}
      {/* Its dialog is fetched on the first question: pages that never ask (the sign-in page) do not load MUI's modal. */}
      {everAsked && (
        <Suspense fallback={null}>
          <ConfirmDialog options={options} answer={answer} />
        </Suspense>
      )}
    </ConfirmContext.Provider>
  );
}
