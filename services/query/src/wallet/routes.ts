import { CREDIT_PACKS, DEFAULT_RUPEES_PER_CREDIT, STARTING_CREDITS, type ApiRoutes } from '@telemed/contracts';
import { policies, type ApiRouter, type ReadStore } from '@telemed/platform';
import { WALLETS, WALLET_ENTRIES, type WalletDoc, type WalletEntryDoc } from './projection';

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

/** A patient's own wallet and statement (issue 36): only theirs, by their session. */
export function walletQueryRoutes(api: ApiRouter, deps: { readStore: ReadStore; startingCredits?: number }): void {
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
}
