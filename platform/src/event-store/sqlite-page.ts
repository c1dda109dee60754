/**
 * One page of the SQLite log for readers on other threads that hand the page over as one JSON text: the reader then
 * parses it in one call, with no row objects between. SQLite writes each event's whole JSON (data and metadata are
 * JSON text already), so a thread only passes the page on (the decrypting thread sends its opened fields beside it).
 */
const EVENT_JSON = `'{"position":' || position || ',"event_id":' || json_quote(event_id) || ',"stream_id":' || json_quote(stream_id) ||
    ',"revision":' || revision || ',"type":' || json_quote(type) || ',"data":' || data || ',"metadata":' || metadata || '}'`;

/**
 * The page as one JSON array text, its number of events and its last position, joined by SQLite: the reader takes the
 * page without a row object per event or a join of its own (a third of a page's cost there). The last position is
 * where the page after it starts (the read-ahead thread reads that one next). The rows are joined as the ordered
 * subquery hands them over; SQLite documents no order for group_concat without its own ORDER BY, which sorts the page
 * again (a third of the query), so the reader checks the order (inPositionOrder).
 */
export const PAGE_TEXT_SQL = `SELECT '[' || coalesce(group_concat(text, ','), '') || ']' AS text, count(*) AS count, max(position) AS last
FROM (SELECT position, ${EVENT_JSON} AS text FROM events WHERE position > ? ORDER BY position LIMIT ?)`;

/** A page parsed from PAGE_TEXT_SQL's text, in position order (sorted only if SQLite joined it otherwise). */
export function inPositionOrder<E extends { position: number }>(events: E[]): E[] {
  for (let i = 1; i < events.length; i += 1) {
    if (events[i]!.position <= events[i - 1]!.position) return events.sort((a, b) => a.position - b.position);
  }
  return events;
}
