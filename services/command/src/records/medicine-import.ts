import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { parse, type CsvError } from 'csv-parse';
import { z } from 'zod';
import { streams, type DomainEventOf } from '@telemed/contracts';
import type { BlobStore, EventStore } from '@telemed/platform';
import { brandEntry, loadNlem, type BrandRow, type MedicineEntry } from '@telemed/medicines';
import { handleCommand, type CommandContext, type Decider } from '../decider';

/** The columns of a clinic's brand catalogue, in any order (a header line names them; other columns are refused). */
export const BRAND_COLUMNS = ['name', 'manufacturer', 'composition', 'strength', 'form'] as const;

const cell = (max: number) => z.string().trim().min(1, 'is empty').max(max, `is longer than ${max} characters`);

/** One brand row: every column filled, as a licensed catalogue lists it. */
export const brandRowSchema = z.strictObject({
  name: cell(200),
  manufacturer: cell(200),
  composition: cell(500),
  strength: cell(100),
  form: cell(100),
});

/** The owner of the catalogue's blob: the key ring's subject its bytes are encrypted under (nobody's personal data). */
export const CATALOGUE_SUBJECT = 'medicine_catalogue';

export type CatalogueCheck = { ok: true; entries: MedicineEntry[]; sha256: string } | { ok: false; errors: string[] };

/**
 * Reads and checks a brand catalogue CSV (csv-parse, streamed): a header naming exactly the five columns, then one
 * brand per record, each validated by brandRowSchema. Every bad record is reported with its line number (the
 * line where the record ends in the file, as an editor shows it); the same brand twice is an error too. Each good
 * row becomes a catalogue entry classified under the Guidelines by its composition (NLEM 2022's lists).
 */
export async function checkBrandCatalogue(source: Readable, options: { maxErrors?: number } = {}): Promise<CatalogueCheck> {
  const maxErrors = options.maxErrors ?? 50;
  const errors: Array<{ line: number; message: string }> = [];
  const report = (line: number, message: string) => errors.push({ line, message });
  const hash = createHash('sha256');
  source.on('data', (chunk: Buffer) => hash.update(chunk));
  const nlem = loadNlem();
  const entries: MedicineEntry[] = [];
  const seen = new Map<string, number>();
  let header: string[] | null = null;
  const parser = source.pipe(
    parse({
      bom: true,
      trim: true,
      skip_empty_lines: true,
      info: true,
      // A record with the wrong number of fields, or a stray quote, is reported and skipped, not fatal.
      skip_records_with_error: true,
      on_skip: (error: CsvError | undefined) => {
        if (!error) return;
        const length = /expect (\d+), got (\d+)/.exec(error.message);
        report(Number(error.lines) || 0, length ? `${length[2]} fields where the header names ${length[1]}` : error.message.replace(/ on line \d+$/, ''));
      },
    }),
  );
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      if (!header) {
        header = record.map((h) => h.toLowerCase());
        const missing = BRAND_COLUMNS.filter((c) => !header!.includes(c));
        const unknown = header.filter((h) => !(BRAND_COLUMNS as readonly string[]).includes(h));
        if (missing.length || unknown.length || new Set(header).size !== header.length) {
          return { ok: false, errors: [`line ${info.lines}: the header must name the columns ${BRAND_COLUMNS.join(', ')} (each once)${missing.length ? `; missing ${missing.join(', ')}` : ''}${unknown.length ? `; unknown ${unknown.join(', ')}` : ''}`] };
        }
        continue;
      }
      const fields = Object.fromEntries(header.map((h, i) => [h, record[i] ?? '']));
      const parsed = brandRowSchema.safeParse(fields);
      if (!parsed.success) {
        report(info.lines, parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; '));
        continue;
      }
      const row: BrandRow = parsed.data;
      const entry = brandEntry(row, nlem);
      const earlier = seen.get(entry.id);
      if (earlier !== undefined) {
        report(info.lines, `the same brand as line ${earlier}`);
        continue;
      }
      seen.set(entry.id, info.lines);
      entries.push(entry);
    }
  } catch (error) {
    // csv-parse stops on what it cannot skip (an unclosed quote at the end of the file).
    report(Number((error as { lines?: unknown }).lines) || 0, (error as Error).message.replace(/ on line \d+$/, ''));
  }
  if (!header) return { ok: false, errors: ['the file is empty: a header line naming the columns is needed'] };
  if (entries.length === 0 && errors.length === 0) return { ok: false, errors: ['the file has no brand rows'] };
  if (errors.length === 0) return { ok: true, entries, sha256: hash.digest('hex') };
  // csv-parse reports a skipped record as it meets it, ahead of the rows still being read: in the file's order here.
  const sorted = errors.sort((a, b) => a.line - b.line).map((e) => (e.line ? `line ${e.line}: ${e.message}` : e.message));
  return { ok: false, errors: sorted.length > maxErrors ? [...sorted.slice(0, maxErrors), `… and ${sorted.length - maxErrors} more`] : sorted };
}

type ImportEvent = DomainEventOf<'MedicineCatalogueImported'>;
type ImportCommand = { type: 'ImportMedicineCatalogue'; data: ImportEvent['data'] };

/** The catalogue's stream records each import; the latest one is the catalogue (MedicineCatalogue reads it). */
export const catalogueDecider: Decider<{ imports: number }, ImportCommand, ImportEvent> = {
  initialState: () => ({ imports: 0 }),
  evolve: (state) => ({ imports: state.imports + 1 }),
  decide: (command) => [{ type: 'MedicineCatalogueImported', data: command.data }],
};

/**
 * `medicines:import FILE.csv`: checks the whole file first and stores nothing when any row is bad; otherwise writes
 * the entries (JSON lines) as one blob encrypted like every other, then records MedicineCatalogueImported naming it.
 * The new catalogue replaces the previous import (the shipped NLEM list stays beside it).
 */
export async function importBrandCatalogue(
  deps: { eventStore: EventStore; blobs: BlobStore },
  file: string,
  context: CommandContext,
): Promise<{ ok: true; import_id: string; rows: number; position: number | null } | { ok: false; errors: string[] }> {
  const checked = await checkBrandCatalogue(createReadStream(file));
  if (!checked.ok) return checked;
  return { ok: true, ...(await storeBrandCatalogue(deps, checked.entries, checked.sha256, context)) };
}

/**
 * Stores checked catalogue entries (JSON lines) as one blob encrypted like every other and records
 * MedicineCatalogueImported naming it: the import's second half, after the file's checks.
 */
export async function storeBrandCatalogue(
  deps: { eventStore: EventStore; blobs: BlobStore },
  entries: MedicineEntry[],
  sha256: string,
  context: CommandContext,
): Promise<{ import_id: string; rows: number; position: number | null }> {
  const lines = function* () {
    for (const entry of entries) yield JSON.stringify(entry) + '\n';
  };
  const stored = await deps.blobs.put(Readable.from(lines()), { subject_id: CATALOGUE_SUBJECT });
  const import_id = randomUUID();
  const result = await handleCommand(
    deps.eventStore,
    streams.medicineCatalogue(),
    catalogueDecider,
    { type: 'ImportMedicineCatalogue', data: { import_id, blob_id: stored.blob_id, rows: entries.length, sha256 } },
    context,
  );
  return { import_id, rows: entries.length, position: result.position };
}
