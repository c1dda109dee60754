import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Alert, AlertTitle, Box, Button, LinearProgress, Stack } from '@mui/material';
import { useT } from '../i18n/useT';

/** The seeds' toasts: types, 5 000 ms by default, at most 20, progress every 50 ms, optional actions. */
export type ToastType = 'success' | 'error' | 'warning' | 'info' | 'appointment';
export interface ToastAction {
  label: string;
  primary?: boolean;
  handler: () => void;
}
export interface ToastInput {
  type: ToastType;
  title: string;
  message?: string;
  /** Milliseconds; ignored when autoDismiss is false. */
  duration?: number;
  autoDismiss?: boolean;
  actions?: ToastAction[];
  /** A toast about one thing (e.g. one request): showing the same key again replaces it, and `dismissKey` removes it. */
  key?: string;
}
interface Toast extends ToastInput {
  id: number;
  createdAt: number;
}

export const TOAST_DEFAULT_MS = 5000;
export const TOAST_MAX = 20;
export const TOAST_TICK_MS = 50;

const ToastContext = createContext<{ show(toast: ToastInput): number; dismiss(id: number): void; dismissKey(key: string): void } | null>(null);

export function useToasts() {
  const context = useContext(ToastContext);
  if (!context) throw new Error('useToasts needs a ToastProvider');
  return context;
}

const severity = (type: ToastType) => (type === 'appointment' ? 'info' : type);

function ToastItem({ toast, onDismiss }: { toast: Toast; onDismiss: () => void }) {
  const t = useT();
  const duration = toast.duration ?? TOAST_DEFAULT_MS;
  const auto = toast.autoDismiss !== false;
  const [elapsed, setElapsed] = useState(0);
  useEffect(() => {
    if (!auto) return;
    const timer = setInterval(() => setElapsed(Date.now() - toast.createdAt), TOAST_TICK_MS);
    return () => clearInterval(timer);
  }, [auto, toast.createdAt]);
  useEffect(() => {
    if (auto && elapsed >= duration) onDismiss();
  }, [auto, elapsed, duration, onDismiss]);
  return (
    <Alert
      severity={severity(toast.type)}
      variant="filled"
      onClose={onDismiss}
      // Not 'Close': a toast may show inside a dialog, whose own Close must stay the one button of that name.
      closeText={t('common.dismissMessage')}
      role="status"
      data-testid="toast"
      sx={{ width: '24rem', maxWidth: 'calc(100vw - 2rem)', boxShadow: 3, position: 'relative', overflow: 'hidden' }}
    >
      <AlertTitle>{toast.title}</AlertTitle>
      {toast.message}
      {toast.actions && (
        <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
          {toast.actions.map((action) => (
            <Button
              key={action.label}
              size="small"
              color="inherit"
              variant={action.primary ? 'outlined' : 'text'}
              onClick={() => {
                action.handler();
                onDismiss();
              }}
            >
              {action.label}
            </Button>
          ))}
        </Stack>
      )}
      {auto && (
        <LinearProgress
          // The time left before the message closes, for the eye only: a screen reader hears the message itself.
          aria-hidden
          variant="determinate"
          value={Math.max(0, 100 - (elapsed / duration) * 100)}
          sx={{ position: 'absolute', left: 0, right: 0, bottom: 0, height: 3, opacity: 0.6 }}
          color="inherit"
        />
      )}
    </Alert>
  );
}

/**
 * The dialog on top, if one is open. An open MUI dialog hides everything beside it from screen readers (aria-hidden
 * on the app's root) and keeps the keyboard's focus inside it, so toasts shown meanwhile are drawn inside it.
 */
function useTopDialog(): HTMLElement | null {
  const [dialog, setDialog] = useState<HTMLElement | null>(null);
  useEffect(() => {
    const find = () => {
      const open = document.querySelectorAll<HTMLElement>('.MuiDialog-root:not([aria-hidden="true"]) [role="dialog"]');
      setDialog(open.length > 0 ? open[open.length - 1]! : null);
    };
    find();
    // Dialogs are portalled into the body; a closing one is removed after its transition.
    const observer = new MutationObserver(find);
    observer.observe(document.body, { childList: true });
    return () => observer.disconnect();
  }, []);
  return dialog;
}

export function ToastProvider({ children }: { children: ReactNode }) {
  const dialog = useTopDialog();
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((t) => t.id !== id)), []);
  const dismissKey = useCallback((key: string) => setToasts((all) => all.filter((t) => t.key !== key)), []);
  const show = useCallback((input: ToastInput) => {
    const id = next.current++;
    setToasts((all) => {
      const others = input.key === undefined ? all : all.filter((t) => t.key !== input.key);
      return [...others, { ...input, id, createdAt: Date.now() }].slice(-TOAST_MAX);
    });
    return id;
  }, []);
  const value = useMemo(() => ({ show, dismiss, dismissKey }), [show, dismiss, dismissKey]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      {portalled(
        // Below the header (64 px), so the signed-in person's name and menu stay visible.
        <Box aria-live="polite" data-testid="toasts" sx={{ position: 'fixed', top: 72, right: 16, zIndex: 2000, display: 'flex', flexDirection: 'column', gap: 1 }}>
          {toasts.map((toast) => (
            <ToastItem key={toast.id} toast={toast} onDismiss={() => dismiss(toast.id)} />
          ))}
        </Box>,
        dialog,
      )}
    </ToastContext.Provider>
  );
}

/** In the open dialog when there is one (reachable by keyboard and screen readers there), else where it stands. */
function portalled(region: ReactNode, dialog: HTMLElement | null): ReactNode {
  return dialog ? createPortal(region, dialog) : region;
}
