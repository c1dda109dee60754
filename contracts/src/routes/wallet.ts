import { z } from '../zod';
import { CREDIT_PACKS } from '../constants';
import { FEE_CHARGE_REASONS, FEE_RETURN_REASONS } from '../wallet';
import { defineRoutes } from './define';

const walletSchema = z
  .object({
    balance: z.number().int().openapi({ description: 'Credits free to spend' }),
    held: z.number().int().openapi({ description: 'Credits held for requests not yet charged or returned' }),
    rupees_per_credit: z.number().positive().openapi({ description: 'What one credit pays of a fee, in rupees' }),
    packs: z.array(z.object({ credits: z.number().int(), price_rupees: z.number().int() })),
  })
  .openapi('Wallet');

const entrySchema = z
  .object({
    entry_id: z.string(),
    at: z.string(),
    kind: z.enum(['opened', 'bought', 'held', 'charged', 'returned', 'adjusted']),
    /** What the entry did to the spendable balance (a charge moves a held fee: it changes nothing here). */
    credits: z.number().int(),
    appointment_id: z.string().nullable(),
    reason: z.union([z.enum(FEE_CHARGE_REASONS), z.enum(FEE_RETURN_REASONS), z.literal('adjustment')]).nullable(),
    amount_paise: z.number().int().nullable(),
    payment_id: z.string().nullable(),
  })
  .openapi('WalletEntry');

export const walletRoutes = defineRoutes({
  getMyWallet: {
    summary: `The patient's credits: free to spend and held for requests (a new wallet starts with its grant), and the packs on sale (${CREDIT_PACKS.length})`,
    tags: ['wallet'],
    response: walletSchema,
  },
  listMyWalletEntries: {
    summary: "The patient's statement: every change of their credits, newest first, a page at a time",
    tags: ['wallet'],
    query: z.strictObject({
      limit: z.coerce.number().int().min(1).max(100).default(50),
      before: z.string().max(64).optional().openapi({ description: 'The entry_id of the last entry of the previous page' }),
    }),
    response: z.array(entrySchema),
  },
});
