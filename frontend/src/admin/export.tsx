import { useState } from 'react';
import DownloadIcon from '@mui/icons-material/GetApp';
import {
  Button,
  CreateButton,
  FilterButton,
  TopToolbar,
  downloadCSV,
  useDataProvider,
  useFilterContext,
  useListContext,
  useNotify,
  useResourceDefinition,
  type DataProvider,
  type RaRecord,
} from 'react-admin';
import { csvOf } from '@telemed/contracts/admin';
import { useErrorText } from '../i18n/errorText';
import { useFormat } from '../i18n/format';
import { useT } from '../i18n/useT';
import { asApiError } from './providers';

/** The API's largest page (`range` spans at most 100 records): an export asks for pages of this size. */
export const EXPORT_PAGE_SIZE = 100;
/** An export stops here: a larger one is a job for the API, not a browser download. */
export const EXPORT_MAX_RECORDS = 10_000;

/** Every column any record has, in the order they first appear; cells defused against spreadsheet formulas. */
export function recordsCsv(records: readonly RaRecord[]): string {
  const columns: string[] = [];
  for (const record of records) for (const key of Object.keys(record)) if (!columns.includes(key)) columns.push(key);
  return csvOf(columns, records.map((record) => columns.map((column) => (record as Record<string, unknown>)[column])));
}

/** Reads the list as filtered and sorted, a page of {@link EXPORT_PAGE_SIZE} at a time, up to {@link EXPORT_MAX_RECORDS}. */
export async function fetchAllForExport(
  dataProvider: DataProvider,
  resource: string,
  params: { filter: Record<string, unknown>; sort: { field: string; order: 'ASC' | 'DESC' } },
): Promise<{ records: RaRecord[]; truncated: boolean }> {
  const records: RaRecord[] = [];
  for (let page = 1; records.length < EXPORT_MAX_RECORDS; page += 1) {
    const { data, total } = await dataProvider.getList(resource, { ...params, pagination: { page, perPage: EXPORT_PAGE_SIZE } });
    records.push(...data);
    if (data.length < EXPORT_PAGE_SIZE || (total !== undefined && records.length >= total)) return { records, truncated: false };
  }
  return { records: records.slice(0, EXPORT_MAX_RECORDS), truncated: true };
}

/**
 * react-admin's Export, in pages the API accepts (its own asks for 1 000 records at once, which the API refuses) and
 * written as a CSV a spreadsheet opens as text: a note or a name such as `=cmd|…` stays text, never a formula.
 */
export function ExportAllButton() {
  const { resource, filterValues, filter, sort, total } = useListContext();
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const t = useT();
  const f = useFormat();
  const explain = useErrorText();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      const { records, truncated } = await fetchAllForExport(dataProvider, resource, {
        filter: { ...filterValues, ...filter },
        sort: { field: sort.field, order: sort.order },
      });
      downloadCSV(recordsCsv(records), resource);
      if (truncated) notify(t('admin.exportTruncated', { max: f.count(EXPORT_MAX_RECORDS) }), { type: 'warning' });
    } catch (error) {
      notify(explain(asApiError(error), 'admin.exportFailed'), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button label={t('admin.ra.action.export')} onClick={() => void run()} disabled={busy || total === 0}>
      <DownloadIcon />
    </Button>
  );
}

/** react-admin's list actions (filters, Create where allowed), with {@link ExportAllButton} as the Export. */
export function ListActionsWithExport() {
  const { hasCreate } = useResourceDefinition();
  const filters = useFilterContext();
  return (
    <TopToolbar>
      {filters && filters.length > 0 && <FilterButton />}
      {hasCreate && <CreateButton />}
      <ExportAllButton />
    </TopToolbar>
  );
}
