import { API_TEXTS, notFound } from '@telemed/contracts';
import { Subjects, policies, type AccessAudit, type AccessClaims, type ApiRouter, type Filter } from '@telemed/platform';
import type { UserDoc } from '../projections';
import { COUNTED, contentRange } from './ra';
import type { AdminContext } from './scope';

const userRecord = (doc: UserDoc) => ({
  id: doc._id,
  name: doc.name,
  email: doc.email,
  phone_number: doc.phone_number,
  account_type: doc.account_type,
  is_active: doc.active,
  registered_at: doc.registered_at,
  erased: doc.erased_at !== undefined,
});

/** Accounts (platform admins): every read of one is on its person's access log. */
export function userRoutes(api: ApiRouter, ctx: AdminContext): void {
  const users = ctx.readStore.collection<UserDoc>('users');
  /** An operator's read of accounts (name, e-mail, phone): on each shown person's access log, the reader excepted. */
  const recordUserReads = (auth: AccessClaims, req: Parameters<AccessAudit['record']>[1], docs: UserDoc[], route: string) => {
    const subjects = new Subjects();
    for (const doc of docs) subjects.add(doc._id, 'contact_details');
    return ctx.audit.record(auth, req, { purpose: 'platform_administration', resource: 'user_accounts', route, institution: null, subjects });
  };

  api.implement('listAdminUsers', {
    policy: policies.roles('admin'),
    handler: async ({ auth, query, req }) => {
      const filter: Filter = {};
      if (query.filter.id) filter._id = { $in: query.filter.id };
      if (query.filter.account_type) filter.account_type = query.filter.account_type;
      if (query.filter.is_active !== undefined) filter.active = query.filter.is_active;
      const field = query.sort.field === 'id' ? '_id' : query.sort.field;
      const [docs, total] = await Promise.all([
        users.find(filter, { sort: { [field]: query.sort.order, _id: query.sort.order }, skip: query.start, limit: query.end - query.start + 1 }),
        users.count(filter, COUNTED),
      ]);
      // One audit event per page read, naming the accounts that page showed (bounded by the page, as every list).
      await recordUserReads(auth, req, docs, 'GET /api/v1/admin/users');
      return { body: docs.map(userRecord), headers: contentRange('users', query.start, docs.length, total) };
    },
  });

  api.implement('getAdminUser', {
    policy: policies.roles('admin'),
    handler: async ({ auth, params, req }) => {
      const doc = await users.get(params.id);
      if (!doc) throw notFound(API_TEXTS.userNotFound);
      await recordUserReads(auth, req, [doc], 'GET /api/v1/admin/users/:id');
      return { body: userRecord(doc) };
    },
  });
}
