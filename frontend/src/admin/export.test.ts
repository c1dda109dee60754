import { describe, expect, it } from 'vitest';
import type { DataProvider, GetListParams, RaRecord } from 'react-admin';
import { EXPORT_MAX_RECORDS, EXPORT_PAGE_SIZE, fetchAllForExport, recordsCsv } from './export';

describe("the console's Export", () => {
  it('writes every column; a note with commas, quotes and a line break stays one cell; formulas stay text', () => {
    const csv = recordsCsv([
      { id: 'a1', patient_name: "=cmd|' /C calc'!A0", notes: 'Cough, cold; "bad"\n=HYPERLINK("x")', fee: -5 },
      { id: 'a2', patient_name: '＠SUM(A1)', phone: '+91 90000 11111', extra: { k: 1 } },
    ]);
    expect(csv).toBe(
      'id,patient_name,notes,fee,phone,extra\r\n' +
        `"a1","'=cmd|' /C calc'!A0","Cough, cold; ""bad""\n=HYPERLINK(""x"")",-5,"",""\r\n` +
        `"a2","'＠SUM(A1)","","","'+91 90000 11111","{""k"":1}"\r\n`,
    );
  });

  it('reads the filtered, sorted list in pages the API accepts, to the end', async () => {
    const calls: GetListParams[] = [];
    const all: RaRecord[] = Array.from({ length: 250 }, (_, i) => ({ id: i }));
    const provider = {
      getList: async (_resource: string, params: GetListParams) => {
        calls.push(params);
        const { page, perPage } = params.pagination!;
        return { data: all.slice((page - 1) * perPage, page * perPage), total: all.length };
      },
    } as unknown as DataProvider;
    const { records, truncated } = await fetchAllForExport(provider, 'appointments', { filter: { status: 'confirmed' }, sort: { field: 'start', order: 'DESC' } });
    expect(records.map((r) => r.id)).toEqual(all.map((r) => r.id));
    expect(truncated).toBe(false);
    expect(calls.map((c) => c.pagination)).toEqual([1, 2, 3].map((page) => ({ page, perPage: EXPORT_PAGE_SIZE })));
    expect(calls.every((c) => c.filter.status === 'confirmed' && c.sort?.field === 'start')).toBe(true);
  });

  it(`stops at ${EXPORT_MAX_RECORDS} records and says so`, async () => {
    const provider = {
      getList: async (_resource: string, params: GetListParams) => ({
        data: Array.from({ length: EXPORT_PAGE_SIZE }, (_, i) => ({ id: `${params.pagination!.page}-${i}` })),
        total: 1_000_000,
      }),
    } as unknown as DataProvider;
    const { records, truncated } = await fetchAllForExport(provider, 'users', { filter: {}, sort: { field: 'id', order: 'ASC' } });
    expect(records).toHaveLength(EXPORT_MAX_RECORDS);
    expect(truncated).toBe(true);
  });
});
