import { policies, type ApiRouter, type BlobStore, type ReadStore } from '@telemed/platform';
import { ACCESS_LOG, type AccessLogDoc } from './access-log';
import { accessViews } from './access-views';
import { personalDataExport } from './export';
import { exportZip } from './export-zip';

/**
 * The person's rights of access (issue 12): who saw my data (the access log, from the audit events), and everything
 * the product holds about me as one JSON document. Both read only the caller's own data, so neither is audited.
 */
export function privacyQueryRoutes(
  api: ApiRouter,
  deps: { readStore: ReadStore; clock: () => Date; /** For the prescriptions' verification links. */ publicUrl?: string; /** The record files, for the zip export. */ blobs?: BlobStore },
): void {
  const { readStore } = deps;
  const accessLog = readStore.collection<AccessLogDoc>(ACCESS_LOG);
  const { entryViews } = accessViews(readStore);

  api.implement('getMyAccessLog', {
    policy: policies.anyUser,
    handler: async ({ auth, query }) => {
      const filter: Record<string, unknown> = { subject_id: auth.user_id };
      if (query.cursor !== undefined) filter.position = { $lt: Number(query.cursor) };
      // One more than the page tells whether another page follows.
      const docs = await accessLog.find(filter, { sort: { position: -1 }, limit: query.limit + 1 });
      const page = docs.slice(0, query.limit);
      const next_cursor = docs.length > query.limit ? String(page[page.length - 1]!.position) : null;
      return { body: { entries: await entryViews(page), next_cursor } };
    },
  });

  api.implement('exportMyData', {
    policy: policies.anyUser,
    handler: async ({ auth, query }) => {
      const me = auth.user_id;
      const body = await personalDataExport(readStore, me, { clock: deps.clock, publicUrl: deps.publicUrl ?? '' });
      const day = deps.clock().toISOString().slice(0, 10);
      if (query.format === 'zip') return { body: await exportZip(readStore, deps.blobs, me, body), headers: { 'Content-Disposition': `attachment; filename="telemed-my-data-${day}.zip"`, 'Cache-Control': 'no-store' } };
      return {
        body,
        headers: {
          'Content-Disposition': `attachment; filename="telemed-my-data-${day}.json"`,
          'Cache-Control': 'no-store',
        },
      };
    },
  });
}
