/**
 * One page of the SQLite log with its columns as stored (data and metadata are JSON text), for readers on other
 * threads that hand the page over as one JSON text: the reader then parses it in one call, with no row objects between.
 */
export const PAGE_SQL = 'SELECT position, event_id, stream_id, revision, type, data, metadata FROM events WHERE position > ? ORDER BY position LIMIT ?';

/** A row of PAGE_SQL read raw (as an array). */
export type PageRow = [position: number, event_id: string, stream_id: string, revision: number, type: string, data: string, metadata: string];

/** The event as JSON text, with its data as the given JSON text (the row's own, or the row's data changed). */
export function eventText(row: PageRow, data: string): string {
  return `{"position":${row[0]},"event_id":${JSON.stringify(row[1])},"stream_id":${JSON.stringify(row[2])},"revision":${row[3]},"type":${JSON.stringify(row[4])},"data":${data},"metadata":${row[6]}}`;
}
