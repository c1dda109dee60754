/**
 * One page of the SQLite log for readers on other threads that hand the page over as one JSON text: the reader then
 * parses it in one call, with no row objects between. SQLite writes each event's whole JSON (data and metadata are
 * JSON text already), so a thread only joins the rows, or changes a row's data between its `"data":` and its
 * `"metadata":` (see dataBounds).
 */
const EVENT_JSON = `'{"position":' || position || ',"event_id":' || json_quote(event_id) || ',"stream_id":' || json_quote(stream_id) ||
    ',"revision":' || revision || ',"type":' || json_quote(type) || ',"data":' || data || ',"metadata":' || metadata || '}'`;

export const PAGE_SQL = `SELECT position, type,
  ${EVENT_JSON}
FROM events WHERE position > ? ORDER BY position LIMIT ?`;

/**
 * The same page as one JSON array text, its number of events and its last position, joined by SQLite: a reader that
 * changes nothing in the events takes the page without a row object per event or a join of its own (a third of a
 * page's cost there). The last position is where the page after it starts (the read-ahead thread reads that one next).
 * The rows are joined as the ordered subquery hands them over; SQLite documents no order for group_concat without its
 * own ORDER BY, which sorts the page again (a third of the query), so the reader checks the order (inPositionOrder).
 */
export const PAGE_TEXT_SQL = `SELECT '[' || coalesce(group_concat(text, ','), '') || ']' AS text, count(*) AS count, max(position) AS last
FROM (SELECT position, ${EVENT_JSON} AS text FROM events WHERE position > ? ORDER BY position LIMIT ?)`;

/** A row of PAGE_SQL read raw (as an array): the event as JSON text. */
export type PageRow = [position: number, type: string, text: string];

const DATA = ',"data":';
const METADATA = ',"metadata":';

/**
 * Where the event's data lies in its text: after the first `,"data":` (the ids before it are JSON-quoted, so none can
 * hold one unescaped) and before the last `,"metadata":` (the metadata after it is an object of its own).
 */
export function dataBounds(text: string): { start: number; end: number } {
  return { start: text.indexOf(DATA) + DATA.length, end: text.lastIndexOf(METADATA) };
}

/** A page parsed from PAGE_TEXT_SQL's text, in position order (sorted only if SQLite joined it otherwise). */
export function inPositionOrder<E extends { position: number }>(events: E[]): E[] {
  for (let i = 1; i < events.length; i += 1) {
    if (events[i]!.position <= events[i - 1]!.position) return events.sort((a, b) => a.position - b.position);
  }
  return events;
}
