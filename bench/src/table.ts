/** The README's benchmark table, from bench/results/latest.json: each figure beside its ceiling, with when it was measured. */

interface Stamped<T> {
  measured_at: string;
  runs: number;
  machine: { load_average_at_start?: number[] };
  result: T;
}

type Figures = Partial<{
  appends: Stamped<{ events: number; per_second: number; ceiling_per_second: number; ratio: number; errors: number }>;
  'request-approve': Stamped<{ pairs: number; pairs_per_second: number; p50_ms: number; p99_ms: number; ceiling_pairs_per_second: number; ratio: number; errors: number }>;
  slots: Stamped<{ bytes: number; slots: number; history_events: number; requests_per_second: number; p50_ms: number; ceiling_requests_per_second: number; ratio: number }>;
  rebuild: Stamped<{ events: number; per_second: number; ceiling_per_second: number; ratio: number; store_ceiling_per_second?: number; store_ceiling_ratio?: number; sqlite_per_second?: number; sqlite_ratio?: number; sqlite_ceiling_per_second?: number; sqlite_ceiling_ratio?: number }>;
  'online-rebuild': Stamped<{
    events: number;
    projection: string;
    per_second: number;
    ceiling_per_second: number;
    ratio: number;
    peak_rss_mib: number;
    longest_stall_ms: number;
    retire_seconds?: number;
    retire_longest_stall_ms?: number;
    slowest_query_ms: number;
    failed_or_empty_queries: number;
  }>;
  fanout: Stamped<{ sockets: number; p50_ms: number; p99_ms: number; memory_per_socket_kib: number; messages_per_second: number; ceiling_p50_ms: number; ceiling_p99_ms: number; ceiling_memory_per_socket_kib: number }>;
  growth: Stamped<{
    rows: Array<{
      events: number;
      first_start_ready_seconds: number;
      first_start_caught_up_seconds?: number;
      restart_first_answer_seconds: number;
      restart_ready_seconds: number;
      rss_after_start_mib: number;
      slots_get: { p50_ms: number };
      appointments_upcoming: { p50_ms: number };
      appointments_past_page: { p50_ms: number };
      longest_stall_ms: number;
    }>;
  }>;
  encryption: Stamped<{
    pairs: number;
    pairs_per_second: number;
    unencrypted_pairs_per_second: number;
    booking_cost: number;
    events: number;
    rebuild_per_second: number;
    undecrypted_rebuild_per_second: number;
    rebuild_cost: number;
    rebuild_runs?: number;
  }>;
  'first-frame': Stamped<{
    runs?: number;
    first_frame_ms?: number;
    /** Medians per order of pressing Start Consultation (absent in measurements before issue 31: the doctor first only). */
    by_order_ms?: Partial<Record<'doctor_first' | 'patient_first' | 'together', number>>;
    bare_first_frame_ms?: number;
    skipped?: string;
  }>;
  'login-paint': Stamped<{
    fcp_ms?: number;
    transferred_kib?: number;
    uncompressed_fcp_ms?: number;
    uncompressed_transferred_kib?: number;
    doctor_page_fcp_ms?: number;
    doctor_page_lcp_ms?: number;
    doctor_page_transferred_kib?: number;
    doctor_page_requests?: number;
    hindi_fcp_ms?: number;
    hindi_transferred_kib?: number;
    hindi_doctor_page_fcp_ms?: number;
    hindi_doctor_page_lcp_ms?: number;
    hindi_doctor_page_transferred_kib?: number;
    skipped?: string;
  }>;
  medicines: Stamped<{ limit: number; iterations: number; shipped: MedicineSearchTiming; with_brands: MedicineSearchTiming & { brands: number } }>;
}>;

interface MedicineSearchTiming {
  entries: number;
  build_ms: number;
  p50_ms: number;
  p99_ms: number;
  baseline_p50_ms: number;
  baseline_p99_ms: number;
  worst_query: string;
  worst_p99_ms: number;
}

const n = (value: number, digits = 0) => value.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const JOIN_ORDER_LABELS = { doctor_first: 'doctor first', patient_first: 'patient first', together: 'both at once' } as const;
/** Each order's median, or the one figure of a measurement from before the orders. */
function firstFrameFigure(r: NonNullable<Figures['first-frame']>['result']): string {
  const orders = (['doctor_first', 'patient_first', 'together'] as const).flatMap((order) => {
    const ms = r.by_order_ms?.[order];
    return ms === undefined ? [] : [`${JOIN_ORDER_LABELS[order]} ${n(ms)} ms`];
  });
  return orders.length > 0 ? orders.join(', ') : `${n(r.first_frame_ms ?? NaN)} ms (doctor first)`;
}
const when = (s: Stamped<unknown>) => `${s.measured_at.slice(0, 10)}, median of ${s.runs}, load ${s.machine.load_average_at_start?.[0] ?? '?'}`;

export function markdownTable(latest: { figures?: Figures }): string {
  const f = latest.figures ?? {};
  const rows: string[] = ['| figure | product | fair ceiling, same run | ratio | measured |', '|---|---|---|---|---|'];
  if (f.appends) {
    const r = f.appends.result;
    rows.push(`| event-store appends, 50 writers, distinct streams | ${n(r.per_second)} events/s | ${n(r.ceiling_per_second)} raw SQLite inserts/s | ${r.ratio} | ${when(f.appends)} |`);
  }
  if (f['request-approve']) {
    const r = f['request-approve'].result;
    rows.push(
      `| request + approve over HTTP, 50 clients | ${n(r.pairs_per_second)} pairs/s, p50 ${r.p50_ms} ms, p99 ${r.p99_ms} ms | ${n(r.ceiling_pairs_per_second)} pairs/s: plain HTTP server, same inserts and durability | ${r.ratio} | ${when(f['request-approve'])} |`,
    );
  }
  if (f.slots) {
    const r = f.slots.result;
    rows.push(
      `| GET available slots (${r.slots} slots, ${n(r.bytes / 1024)} KB; ${n(r.history_events)} events of history), 20 clients | ${n(r.requests_per_second)} req/s, p50 ${r.p50_ms} ms | ${n(r.ceiling_requests_per_second)} req/s: plain server, same bytes | ${r.ratio} | ${when(f.slots)} |`,
    );
  }
  if (f.rebuild) {
    const r = f.rebuild.result;
    rows.push(`| projection rebuild, ${n(r.events)} events, in memory (the tests' store) | ${n(r.per_second)} events/s | ${n(r.ceiling_per_second)} events/s: reading and parsing the same log | ${r.ratio} | ${when(f.rebuild)} |`);
    if (r.store_ceiling_per_second !== undefined) {
      rows.push(
        `| projection rebuild, ${n(r.events)} events, in memory, beside reading and storing | the same | ${n(r.store_ceiling_per_second)} events/s: the same reading, plus putting the rebuild's final documents (fresh copies) into a new in-memory store with the same indexes, without projection logic | ${r.store_ceiling_ratio} | ${when(f.rebuild)} |`,
      );
    }
    if (r.sqlite_per_second !== undefined) {
      rows.push(
        r.sqlite_ceiling_per_second === undefined
          ? `| projection rebuild, ${n(r.events)} events, into a new SQLite read-models file (what \`npm start\` builds) | ${n(r.sqlite_per_second)} events/s | the same ceiling | ${r.sqlite_ratio} | ${when(f.rebuild)} |`
          : `| projection rebuild, ${n(r.events)} events, into a new SQLite read-models file (what \`npm start\` builds) | ${n(r.sqlite_per_second)} events/s (${r.sqlite_ratio} of the read-only ceiling above) | ${n(r.sqlite_ceiling_per_second)} events/s: the same reading, plus storing the same rows and building the same indexes without projection logic | ${r.sqlite_ceiling_ratio} | ${when(f.rebuild)} |`,
      );
    }
  }
  if (f['online-rebuild']) {
    const r = f['online-rebuild'].result;
    rows.push(
      `| operator's rebuild of \`${r.projection}\` beside its live generation, ${n(r.events)} events, SQLite read store, a client querying throughout | ${n(r.per_second)} events/s${r.retire_seconds === undefined ? ' (the old generation\'s drop included)' : ' to the switch-over'}; peak RSS ${n(r.peak_rss_mib)} MiB; longest stall ${r.longest_stall_ms} ms${r.retire_seconds === undefined ? '' : `; then dropping the old generation ${r.retire_seconds} s, longest stall ${r.retire_longest_stall_ms} ms`}; slowest query ${r.slowest_query_ms} ms; ${r.failed_or_empty_queries} failed or empty answers | ${n(r.ceiling_per_second)} events/s: reading and parsing the same log | ${r.ratio} | ${when(f['online-rebuild'])} |`,
    );
  }
  if (f.fanout) {
    const r = f.fanout.result;
    rows.push(
      `| notifier fan-out, ${n(r.sockets)} sockets, one approval each | p50 ${r.p50_ms} ms, p99 ${r.p99_ms} ms, ${r.memory_per_socket_kib} KiB/socket, ${n(r.messages_per_second)} msg/s | p50 ${r.ceiling_p50_ms} ms, p99 ${r.ceiling_p99_ms} ms, ${r.ceiling_memory_per_socket_kib} KiB/socket: plain ws at the same rate | — | ${when(f.fanout)} |`,
    );
  }
  if (f['login-paint']) {
    const r = f['login-paint'].result;
    rows.push(
      r.skipped
        ? `| /login first contentful paint, Fast 3G, 4× CPU | not run: ${r.skipped} | | | |`
        : `| /login first contentful paint, Fast 3G, 4× CPU | ${n(r.fcp_ms ?? NaN)} ms (${n(r.transferred_kib ?? NaN)} KiB) | ${n(r.uncompressed_fcp_ms ?? NaN)} ms (${n(r.uncompressed_transferred_kib ?? NaN)} KiB) without compression | — | ${when(f['login-paint'])} |`,
    );
    if (!r.skipped && r.doctor_page_fcp_ms !== undefined) {
      rows.push(
        `| a doctor's public page (a week of open slots), Fast 3G, 4× CPU | first contentful paint ${n(r.doctor_page_fcp_ms)} ms, largest ${n(r.doctor_page_lcp_ms ?? NaN)} ms (${n(r.doctor_page_transferred_kib ?? NaN)} KiB in ${r.doctor_page_requests ?? '?'} requests) | — | — | ${when(f['login-paint'])} |`,
      );
    }
    if (!r.skipped && r.hindi_fcp_ms !== undefined && r.fcp_ms !== undefined) {
      const ratio = (hindi: number, english: number) => `${n(hindi / english, 2)}× the English page's`;
      rows.push(
        `| /login in Hindi (a browser asking for hi-IN), Fast 3G, 4× CPU | first contentful paint ${n(r.hindi_fcp_ms)} ms (${n(r.hindi_transferred_kib ?? NaN)} KiB) | ${n(r.fcp_ms)} ms: the English page, same run | ${ratio(r.hindi_fcp_ms, r.fcp_ms)} | ${when(f['login-paint'])} |`,
      );
      if (r.hindi_doctor_page_fcp_ms !== undefined && r.doctor_page_fcp_ms !== undefined) {
        rows.push(
          `| a doctor's public page in Hindi, Fast 3G, 4× CPU | first contentful paint ${n(r.hindi_doctor_page_fcp_ms)} ms, largest ${n(r.hindi_doctor_page_lcp_ms ?? NaN)} ms (${n(r.hindi_doctor_page_transferred_kib ?? NaN)} KiB) | first ${n(r.doctor_page_fcp_ms)} ms, largest ${n(r.doctor_page_lcp_ms ?? NaN)} ms: in English, same run | ${ratio(r.hindi_doctor_page_fcp_ms, r.doctor_page_fcp_ms)} | ${when(f['login-paint'])} |`,
        );
      }
    }
  }
  if (f.encryption) {
    const r = f.encryption.result;
    const pct = (cost: number) => (cost < 0 ? `${n(-cost * 100, 1)} % faster (within the noise)` : `${n(cost * 100, 1)} % slower`);
    rows.push(
      `| per-person encryption: request + approve, 50 clients | ${n(r.pairs_per_second)} pairs/s | ${n(r.unencrypted_pairs_per_second)} pairs/s: the same product without encryption | ${pct(r.booking_cost)} | ${when(f.encryption)} |`,
      `| per-person encryption: rebuild, ${n(r.events)} events | ${n(r.rebuild_per_second)} events/s decrypting | ${n(r.undecrypted_rebuild_per_second)} events/s: the same log as stored | ${pct(r.rebuild_cost)} | ${r.rebuild_runs ? when(f.encryption).replace(/median of \d+/, `median of ${r.rebuild_runs}`) : when(f.encryption)} |`,
    );
  }
  if (f.medicines) {
    const stamped = f.medicines;
    const r = stamped.result;
    const line = (label: string, m: MedicineSearchTiming) =>
      `| medicine search, ${label} (${n(m.entries)} entries; index built in ${n(m.build_ms)} ms), ${r.iterations} searches per query, limit ${r.limit} | p50 ${m.p50_ms} ms, p99 ${m.p99_ms} ms (worst query \`${m.worst_query}\`: p99 ${m.worst_p99_ms} ms) | p50 ${m.baseline_p50_ms} ms, p99 ${m.baseline_p99_ms} ms: a plain \`filter(includes)\` over the same names (substrings only) | — | ${when(stamped)} |`;
    rows.push(line('NLEM 2022 as shipped', r.shipped), line(`NLEM and ${n(r.with_brands.brands)} generated brands`, r.with_brands));
  }
  if (f['first-frame']) {
    const r = f['first-frame'].result;
    rows.push(
      r.skipped
        ? `| video call: Start Consultation to the first remote frame | not run: ${r.skipped} | | | |`
        : `| video call: Start Consultation to the first remote frame on both screens, loopback, peer to peer | ${firstFrameFigure(r)} | ${n(r.bare_first_frame_ms ?? NaN)} ms: two bare RTCPeerConnections holding their media | — | ${f['first-frame'].measured_at.slice(0, 10)}, median of ${r.runs} per order, load ${f['first-frame'].machine.load_average_at_start?.[0] ?? '?'} |`,
    );
  }
  const out = [rows.join('\n')];
  if (f.growth) {
    const g = f.growth;
    out.push(
      [
        `Growth (${g.measured_at.slice(0, 10)}, one run per size, load ${g.machine.load_average_at_start?.[0] ?? '?'}):`,
        '',
        '| events in the log | first start, ready (process managers caught up) | restart: first answer / ready | RSS after start | slots GET p50 | appointments p50 (upcoming / past page) | longest stall |',
        '|---|---|---|---|---|---|---|',
        ...g.result.rows.map(
          (r) =>
            `| ${n(r.events)} | ${n(r.first_start_ready_seconds, 1)} s${r.first_start_caught_up_seconds === undefined ? '' : ` (${n(r.first_start_caught_up_seconds, 1)} s)`} | ${n(r.restart_first_answer_seconds, 2)} s / ${n(r.restart_ready_seconds, 2)} s | ${n(r.rss_after_start_mib)} MiB | ${n(r.slots_get.p50_ms, 1)} ms | ${n(r.appointments_upcoming.p50_ms, 1)} / ${n(r.appointments_past_page.p50_ms, 1)} ms | ${n(r.longest_stall_ms)} ms |`,
        ),
      ].join('\n'),
    );
  }
  return out.join('\n\n');
}
