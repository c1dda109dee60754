import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';

export interface ConfirmOptions {
  title: string;
  /** The question, in the seeds' words where they give them. */
  message: string;
  confirmLabel?: string;
  cancelLabel?: string;
  /** A destructive action gets a red confirm button. */
  destructive?: boolean;
  /** A notice with one button (instead of the browser's alert()). */
  acknowledgeOnly?: boolean;
}

type Ask = (options: ConfirmOptions) => Promise<boolean>;

const ConfirmContext = createContext<Ask | null>(null);

/** In-app confirmation instead of the browser's confirm(): `if (await confirm({...})) ...`. */
export function useConfirm(): Ask {
  const ask = useContext(ConfirmContext);
  if (!ask) throw new Error('useConfirm needs a ConfirmProvider');
  return ask;
}

export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [options, setOptions] = useState<ConfirmOptions | null>(null);
  const resolver = useRef<((answer: boolean) => void) | null>(null);
  const ask = useCallback<Ask>(
    (next) =>
      new Promise<boolean>((resolve) => {
        resolver.current?.(false);
        resolver.current = resolve;
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
      <Dialog open={options !== null} onClose={() => answer(false)} aria-labelledby="confirm-title" aria-describedby="confirm-message">
        <DialogTitle id="confirm-title">{options?.title}</DialogTitle>
        <DialogContent>
          <DialogContentText id="confirm-message">{options?.message}</DialogContentText>
        </DialogContent>
        <DialogActions>
          {!options?.acknowledgeOnly && <Button onClick={() => answer(false)}>{options?.cancelLabel ?? 'Keep'}</Button>}
          <Button onClick={() => answer(true)} variant="contained" color={options?.destructive ? 'error' : 'primary'} autoFocus>
            {options?.confirmLabel ?? (options?.acknowledgeOnly ? 'OK' : 'Confirm')}
          </Button>
        </DialogActions>
      </Dialog>
    </ConfirmContext.Provider>
  );
}
