import { INSTITUTION_TEXTS, notFound } from '@telemed/contracts';
import { policies, type ApiRouter, type Filter } from '@telemed/platform';
import type { InstitutionDoc } from '../projections';
import { institutionView } from '../institutions/views';
import { COUNTED, byField, contentRange, pageOf } from './ra';
import { readable, refuseIfNone, type AdminContext } from './scope';

/** Institutions: all for platform admins, otherwise those the caller works in. */
export function institutionRoutes(api: ApiRouter, ctx: AdminContext): void {
  const { institutions } = ctx.lookups;
  api.implement('listAdminInstitutions', {
    policy: policies.anyUser,
    handler: async ({ auth, query }) => {
      const scope = await ctx.scopeOf(auth);
      const allowed = readable(scope, 'read');
      refuseIfNone(allowed);
      const f = query.filter;
      const q = f.q?.toLowerCase();
      const keep = (d: InstitutionDoc) =>
        (!f.id || f.id.includes(d._id)) && (f.is_active === undefined || d.is_active === f.is_active) && (!q || d.name.toLowerCase().includes(q) || d.slug.includes(q));
      const sortField = query.sort.field === 'id' ? '_id' : query.sort.field;
      if (allowed) {
        const mine = (await Promise.all([...allowed].map((id) => institutions.get(id)))).filter((d): d is InstitutionDoc => d !== null && keep(d));
        return pageOf('institutions', mine.map(institutionView).sort(byField(query.sort.field, query.sort.order)), query);
      }
      // Institutions are few; the filter narrows by id where it can.
      const filter: Filter = {};
      if (f.id) filter._id = { $in: f.id };
      if (f.is_active !== undefined) filter.is_active = f.is_active;
      if (q) {
        const all = (await institutions.find(filter, { sort: { [sortField]: query.sort.order } })).filter(keep);
        return pageOf('institutions', all.map(institutionView), query);
      }
      const [page, total] = await Promise.all([
        institutions.find(filter, { sort: { [sortField]: query.sort.order, _id: query.sort.order }, skip: query.start, limit: query.end - query.start + 1 }),
        institutions.count(filter, COUNTED),
      ]);
      return { body: page.map(institutionView), headers: contentRange('institutions', query.start, page.length, total) };
    },
  });

  api.implement('getAdminInstitution', {
    policy: policies.anyUser,
    handler: async ({ auth, params }) => {
      const allowed = readable(await ctx.scopeOf(auth), 'read');
      const doc = !allowed || allowed.has(params.id) ? await institutions.get(params.id) : null;
      if (!doc) throw notFound(INSTITUTION_TEXTS.institutionNotFound);
      return { body: institutionView(doc) };
    },
  });
}
