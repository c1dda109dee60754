import type { RoutePath } from '../path-types';

/** The wallet area's routes (issue 36): name, method and path (zod-free; the frontend bundles this). */
export const walletPaths = {
  getMyWallet: { method: 'get', path: '/wallet/me' },
  getMyEarnings: { method: 'get', path: '/doctors/me/earnings' },
  listMyWalletEntries: { method: 'get', path: '/wallet/me/entries' },
  getMyReceipt: { method: 'get', path: '/wallet/me/receipts/:payment_id' },
  createPackOrder: { method: 'post', path: '/wallet/orders' },
  adjustWallet: { method: 'post', path: '/admin/wallets/:patient_id/adjustments' },
  refundPack: { method: 'post', path: '/admin/wallets/:patient_id/refunds' },
  reconcilePayments: { method: 'get', path: '/admin/payments/reconciliation' },
  confirmPackPayment: { method: 'post', path: '/wallet/orders/:order_id/payment' },
  receivePaymentWebhook: { method: 'post', path: '/payments/webhook' },
} as const satisfies Record<string, RoutePath>;
