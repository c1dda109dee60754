import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { onOwnWrite } from '../lib/api';
import { setQueryInvalidator } from '../lib/queryInvalidation';

/**
 * The one query cache of the app, loaded with the first page that reads through it (the signed-in screens and the
 * public doctor page), so the sign-in and welcome pages do not download the query library.
 */
const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 5000 } } });
setQueryInvalidator(() => void queryClient.invalidateQueries());
onOwnWrite(() => void queryClient.invalidateQueries());

export function QueryLayer({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
