/**
 * One page of the SQLite log for readers on other threads that hand the page over as one JSON text: the reader then
 * parses it in one call, with no row objects between. SQLite writes each event's JSON around its data (data and
 * metadata are JSON text already), so a thread only joins the parts, or puts a changed data between them.
 */
export const PAGE_SQL = `SELECT position, type, data,
  '{"position":' || position || ',"event_id":' || json_quote(event_id) || ',"stream_id":' || json_quote(stream_id) ||
    ',"revision":' || revision || ',"type":' || json_quote(type) || ',"data":' AS head,
  ',"metadata":' || metadata || '}' AS tail
FROM events WHERE position > ? ORDER BY position LIMIT ?`;

/** A row of PAGE_SQL read raw (as an array): the event's JSON text is head ‖ data ‖ tail. */
export type PageRow = [position: number, type: string, data: string, head: string, tail: string];

/** The event as JSON text, with its data as the given JSON text (the row's own, or the row's data changed). */
export function eventText(row: PageRow, data: string): string {
  return row[3] + data + row[4];
}
