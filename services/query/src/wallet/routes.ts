import { CREDIT_PACKS, DEFAULT_RUPEES_PER_CREDIT, DEFAULT_TIMEZONE, STARTING_CREDITS, WALLET_TEXTS, notFound, receiptLabels, type ApiRoutes } from '@telemed/contracts';
import { StreamedBody, policies, type ApiRouter, type ReadStore } from '@telemed/platform';
import { WALLETS, WALLET_ENTRIES, type WalletDoc, type WalletEntryDoc } from './projection';
import { DOCTOR_EARNINGS, type EarningDoc } from './earnings';
import { renderReceiptPdf, type Seller } from './receipt-pdf';
import type { UserDoc } from '../projections/documents';
import { DateTime } from 'luxon';

type Entry = ApiRoutes['listMyWalletEntries']['response'][number];

const entryView = (doc: WalletEntryDoc): Entry => ({
  entry_id: doc._id,
  at: doc.at,
  kind: doc.kind,
  credits: doc.credits,
  appointment_id: doc.appointment_id,
  reason: doc.reason,
  amount_paise: doc.amount_paise,
  payment_id: doc.payment_id,
});

/** A patient's own wallet and statement, and a doctor's earnings (issue 36): only their own, by their session. */
export function walletQueryRoutes(api: ApiRouter, deps: { readStore: ReadStore; clock: () => Date; startingCredits?: number; seller?: Seller }): void {
  const wallets = deps.readStore.collection<WalletDoc>(WALLETS);
  const entries = deps.readStore.collection<WalletEntryDoc>(WALLET_ENTRIES);

  api.implement('getMyWallet', {
    policy: policies.roles('patient'),
    handler: async ({ auth }) => {
      // A wallet never changed is its grant, as its first change will record it.
      const wallet = await wallets.get(auth.user_id);
      return {
        body: {
          balance: wallet?.balance ?? deps.startingCredits ?? STARTING_CREDITS,
          held: wallet?.held ?? 0,
          rupees_per_credit: DEFAULT_RUPEES_PER_CREDIT,
          packs: CREDIT_PACKS.map((pack) => ({ ...pack })),
        },
      };
    },
  });

  api.implement('listMyWalletEntries', {
    policy: policies.roles('patient'),
    handler: async ({ auth, query }) => {
      const before = query.before ? await entries.get(query.before) : null;
      const page = await entries.find(
        { patient_id: auth.user_id, ...(before && before.patient_id === auth.user_id ? { position: { $lt: before.position } } : {}) },
        { sort: { position: -1 }, limit: query.limit },
      );
      return { body: page.map(entryView) };
    },
  });

  const earnings = deps.readStore.collection<EarningDoc>(DOCTOR_EARNINGS);
  api.implement('getMyEarnings', {
    policy: policies.roles('doctor'),
    handler: async ({ auth, query }) => {
      const zone = query.timezone_str || DEFAULT_TIMEZONE;
      const now = DateTime.fromJSDate(deps.clock()).setZone(zone);
      const first = now.startOf('month').minus({ months: query.months - 1 });
      const months = Array.from({ length: query.months }, (_, i) => ({ month: first.plus({ months: i }).toFormat('yyyy-MM'), rupees: 0, consultations: 0 }));
      const byMonth = new Map(months.map((m) => [m.month, m]));
      const today = { rupees: 0, consultations: 0 };
      const todayStart = now.startOf('day');
      // The window's fees only (the index on doctor and time): never the doctor's whole history.
      for (const earning of await earnings.find({ doctor_id: auth.user_id, at: { $gte: first.toUTC().toISO()! } }, { sort: { at: 1 } })) {
        const at = DateTime.fromISO(earning.at).setZone(zone);
        const consultation = earning.reason === 'consultation' ? 1 : 0;
        const month = byMonth.get(at.toFormat('yyyy-MM'));
        if (month) {
          month.rupees += earning.rupees;
          month.consultations += consultation;
        }
        if (at >= todayStart) {
          today.rupees += earning.rupees;
          today.consultations += consultation;
        }
      }
      return { body: { currency: 'INR' as const, months, today } };
    },
  });

  const users = deps.readStore.collection<UserDoc>('users');
  api.implement('getMyReceipt', {
    policy: policies.roles('patient'),
    handler: async ({ params, auth, res }) => {
      const [bought] = await entries.find({ patient_id: auth.user_id, payment_id: params.payment_id, kind: 'bought' }, { limit: 1 });
      if (!bought || bought.amount_paise === null) throw notFound(WALLET_TEXTS.receiptNotFound);
      res.set('Content-Disposition', `attachment; filename="receipt-${bought.payment_id}.pdf"`);
      res.set('Cache-Control', 'private, no-store');
      const language = (await users.get(auth.user_id))?.language;
      const pdf = renderReceiptPdf({ payment_id: params.payment_id, at: bought.at, credits: bought.credits, amount_paise: bought.amount_paise }, deps.seller ?? { name: 'Telemed' }, receiptLabels(language));
      return { body: new StreamedBody(pdf, 'application/pdf') };
    },
  });
}
