import { PassThrough, Transform, type Readable } from 'node:stream';
import type { Request } from 'express';
import busboy from 'busboy';
import { fileTypeFromBuffer } from 'file-type';
import { API_TEXTS } from '@telemed/contracts';
import { HttpError } from './errors';
import { lingerThenClose, watchUploadProgress } from './body-deadline';

/** How much of a file is read before its type is decided (file-type looks at the first bytes; DICOM at 128–131). */
const SNIFF_BYTES = 64 * 1024;

const MIME = {
  pdf: 'application/pdf',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  dicom: 'application/dicom',
} as const;

/** Names in a compound file's directory that hold VBA macros (Word's `Macros` storage and what it contains). */
const MACRO_ENTRIES = new Set(['Macros', 'VBA', '_VBA_PROJECT']);

/**
 * The entry names of an OLE compound file's directory, as far as its sectors lie in the bytes read (the directory's
 * chain followed through the FAT, itself where it lies in them).
 */
function compoundDirectoryNames(head: Buffer): string[] {
  const sectorShift = head.readUInt16LE(30);
  if (sectorShift !== 9 && sectorShift !== 12) return [];
  const sectorSize = 1 << sectorShift;
  const perFatSector = sectorSize / 4;
  const sectorAt = (n: number) => (n + 1) * sectorSize;
  const nextSector = (n: number): number | null => {
    const fatIndex = Math.floor(n / perFatSector);
    if (fatIndex >= 109) return null;
    const fatSector = head.readUInt32LE(76 + fatIndex * 4);
    const at = sectorAt(fatSector) + (n % perFatSector) * 4;
    return fatSector < 0xfffffffa && at + 4 <= head.length ? head.readUInt32LE(at) : null;
  };
  const names: string[] = [];
  let sector: number | null = head.readUInt32LE(48);
  for (let hops = 0; sector !== null && sector < 0xfffffffa && hops < 256; hops += 1) {
    const start = sectorAt(sector);
    if (start + sectorSize > head.length) break;
    for (let entry = start; entry < start + sectorSize; entry += 128) {
      const nameBytes = head.readUInt16LE(entry + 64);
      if (nameBytes >= 2 && nameBytes <= 64) names.push(head.toString('utf16le', entry, entry + nameBytes - 2));
    }
    sector = nextSector(sector);
  }
  return names;
}

/**
 * An OLE compound file (the .doc container) whose directory, where it lies in the bytes read, names a WordDocument
 * stream and no macros: a Word 97-2003 document with VBA macros (its `Macros` storage) runs them on the reader's
 * computer once they are enabled, the oldest way a document carries malware; it is refused (a .docx cannot hold them).
 */
function isWordCompoundFile(head: Buffer): boolean {
  if (head.length < 512) return false;
  const sectorSize = 1 << head.readUInt16LE(30);
  const directoryStart = (head.readUInt32LE(48) + 1) * sectorSize;
  const wordDocument = Buffer.from('WordDocument', 'utf16le');
  if (directoryStart + 128 <= head.length) {
    if (!head.subarray(directoryStart, directoryStart + sectorSize).includes(wordDocument)) return false;
    return !compoundDirectoryNames(head).some((name) => MACRO_ENTRIES.has(name));
  }
  // The directory lies past the bytes read (a large .doc): the OLE signature is all that was seen.
  return true;
}

/**
 * Executable and script headers at the start of a DICOM file's 128-byte preamble, which the standard leaves free: a
 * file both a valid image and a Windows program (the PE-DICOM polyglot, CVE-2019-11687) runs once it is renamed. A
 * preamble is normally zeros, or a TIFF header; one that starts as a program is refused.
 */
const EXECUTABLE_PREAMBLES = [
  Buffer.from('MZ'), // Windows PE / DOS
  Buffer.from([0x7f, 0x45, 0x4c, 0x46]), // ELF
  Buffer.from([0xfe, 0xed, 0xfa, 0xce]),
  Buffer.from([0xfe, 0xed, 0xfa, 0xcf]),
  Buffer.from([0xce, 0xfa, 0xed, 0xfe]),
  Buffer.from([0xcf, 0xfa, 0xed, 0xfe]),
  Buffer.from([0xca, 0xfe, 0xba, 0xbe]), // Mach-O, fat binaries
  Buffer.from('#!'), // scripts
];

/**
 * The file's type from its content, never its name: file-type's signatures (PDF, JPEG, PNG; DOCX from the ZIP's
 * structure; the OLE container of .doc, checked for its WordDocument stream) and DICOM's `DICM` at offset 128 (its
 * preamble not a program's header).
 * Null when it is none of the product's types (a ZIP of anything else, an XLSX, an XLS: tested with real minimal
 * files in tests/src/api/records.test.ts).
 */
export async function detectFileType(head: Buffer): Promise<string | null> {
  if (head.length >= 132 && head.toString('latin1', 128, 132) === 'DICM') {
    return EXECUTABLE_PREAMBLES.some((magic) => head.subarray(0, magic.length).equals(magic)) ? null : MIME.dicom;
  }
  const found = await fileTypeFromBuffer(head);
  switch (found?.mime) {
    case 'application/pdf':
      return MIME.pdf;
    case 'image/jpeg':
      return MIME.jpeg;
    case 'image/png':
      return MIME.png;
    case 'image/gif':
      return MIME.gif;
    case 'image/webp':
      return MIME.webp;
    case MIME.docx:
      return MIME.docx;
    case 'application/x-cfb':
      return isWordCompoundFile(head) ? MIME.doc : null;
    case 'application/dicom':
      return MIME.dicom;
    default:
      return null;
  }
}

export interface ReceivedFile<S> {
  /** The client's name for it: only ever shown back (stored encrypted), never used in a path. */
  file_name: string;
  content_type: string;
  stored: S;
}

export interface ReceivedUpload<S> {
  fields: Record<string, string>;
  files: Array<ReceivedFile<S>>;
}

export interface UploadRules<S> {
  /** The multipart field that carries files (`files`, `file`); parts under another name are refused. */
  fileFields: readonly string[];
  maxFiles: number;
  maxFileBytes: number;
  maxFieldBytes: number;
  /** Types (by content) accepted. */
  accept: readonly string[];
  /** The answers, in the seeds' words. */
  texts: {
    tooLarge(fileName: string): string;
    badType(fileName: string): string;
    tooMany: string;
    /** More text fields than a form of the product has (40); `tooMany` when not given. */
    tooManyFields?: string;
    notMultipart: string;
    malformed: string;
  };
  /**
   * A bound on the bytes of all the files together (a storage quota): `take` is told of every chunk as it flows and
   * answers whether it still fits; past it the upload gets 413 with `exceeded` (the file being written fails, those
   * stored are discarded). A body announced larger than `room` plus the form's text is refused before it is read.
   */
  total?: { room: number; take(bytes: number): boolean; exceeded: string };
  /** Streams one accepted file to storage; its size is enforced while it flows (the stream fails past the limit). */
  store(file: { stream: Readable; file_name: string; content_type: string }): Promise<S>;
  /** Removes what `store` kept, when the upload as a whole fails. */
  discard(stored: S): Promise<void>;
}

/** Reads the first bytes of a stream (up to `limit`, or all of a shorter one) and leaves the stream paused after them. */
function readHead(stream: Readable, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const done = () => {
      stream.off('data', onData);
      stream.off('end', done);
      stream.off('error', reject);
      stream.pause();
      resolve(Buffer.concat(chunks));
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      length += chunk.length;
      if (length >= limit) done();
    };
    stream.on('data', onData);
    stream.once('end', done);
    stream.once('error', reject);
  });
}

/**
 * Receives a multipart/form-data upload as a stream: each file's type is decided from its first bytes, then the
 * file flows to `store` while its size is counted; nothing is held whole in memory. A body announced larger than
 * the rules allow gets 413 before a byte of it is read, a file past its limit gets 413 as soon as it passes it
 * (the rest is dropped as it comes for a moment, then the connection closes), a file of another type 415. The body
 * may take as long as it needs while it keeps arriving (not HTTP_REQUEST_TIMEOUT_MS); one that stops for
 * HTTP_UPLOAD_IDLE_TIMEOUT_MS gets 408 saying so. When anything fails, the files already stored are discarded.
 */
export async function receiveUpload<S>(req: Request, rules: UploadRules<S>): Promise<ReceivedUpload<S>> {
  const close = { Connection: 'close' };
  if (!req.is('multipart/form-data')) throw new HttpError(415, rules.texts.notMultipart);
  const announced = Number(req.headers['content-length'] ?? 0);
  const ceiling = rules.maxFiles * rules.maxFileBytes + 64 * 1024 + 40 * rules.maxFieldBytes;
  if (announced > ceiling) throw new HttpError(413, rules.texts.tooLarge(''), close);
  if (rules.total && announced > rules.total.room + 64 * 1024 + 40 * rules.maxFieldBytes) throw new HttpError(413, rules.total.exceeded, close);

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      // Browsers send a part's filename="..." as UTF-8 (the HTML standard); busboy's default reads it as Latin-1, which
      // turned रिपोर्ट.pdf into mojibake and hid format characters from displayFileName.
      defParamCharset: 'utf8',
      limits: { files: rules.maxFiles, fileSize: rules.maxFileBytes, fields: 40, fieldSize: rules.maxFieldBytes, parts: rules.maxFiles + 40 },
    });
  } catch {
    throw new HttpError(400, rules.texts.malformed);
  }

  const fields: Record<string, string> = {};
  const jobs: Array<Promise<ReceivedFile<S>>> = [];
  let failed: HttpError | null = null;
  let stopWatching = () => {};
  /**
   * The streams of the files still flowing (busboy's part, and what carries it to storage). When the upload fails
   * (aborted, stalled, refused), they are ended with the failure: otherwise a file cut off mid-way kept its partial
   * blob and open file under blobs/tmp for the life of the process, and a file still being sniffed held back the
   * discarding of the files stored before it.
   */
  const flowing = new Set<Readable | PassThrough | Transform>();

  const outcome = new Promise<void>((resolve, reject) => {
    const fail = (error: HttpError) => {
      if (failed) return;
      // The answer goes out now, while the client may still be sending. Closing at once would make its next writes
      // meet a reset that throws away the answer it has not read yet; so what it still sends is read and dropped for
      // a moment after the answer, then the connection closes (lingering close).
      failed = new HttpError(error.status, error.detail);
      for (const stream of flowing) stream.destroy(failed);
      flowing.clear();
      req.unpipe(parser);
      if (req.res) lingerThenClose(req, req.res);
      else req.pause();
      reject(failed);
    };

    parser.on('file', (name, stream, info) => {
      const fileName = info.filename ?? 'file';
      if (failed) {
        stream.resume();
        return;
      }
      if (!rules.fileFields.includes(name)) {
        stream.resume();
        fail(new HttpError(422, `Unexpected file field ${JSON.stringify(name.slice(0, 40))}`, close));
        return;
      }
      flowing.add(stream);
      stream.once('close', () => flowing.delete(stream));
      // Ended with the failure by `fail` at any moment, between the listeners below too: never an unhandled 'error'.
      stream.on('error', () => undefined);
      const job = (async (): Promise<ReceivedFile<S>> => {
        const head = await readHead(stream, SNIFF_BYTES);
        const type = await detectFileType(head);
        if (!type || !rules.accept.includes(type)) {
          stream.resume();
          throw new HttpError(415, rules.texts.badType(fileName), close);
        }
        const total = rules.total;
        if (total && !total.take(head.length)) {
          stream.resume();
          throw new HttpError(413, total.exceeded, close);
        }
        // Counts what flows past the first bytes against the bound on all the files (when there is one).
        const body = total
          ? new Transform({
              transform(chunk: Buffer, _encoding, callback) {
                if (total.take(chunk.length)) callback(null, chunk);
                else callback(new HttpError(413, total.exceeded, close));
              },
            })
          : new PassThrough();
        flowing.add(body);
        body.once('close', () => flowing.delete(body));
        body.on('error', () => undefined);
        let tooLarge = false;
        stream.once('limit', () => {
          tooLarge = true;
          body.destroy(new HttpError(413, rules.texts.tooLarge(fileName), close));
        });
        stream.once('error', (error) => body.destroy(error));
        if (total) body.push(head);
        else body.write(head);
        stream.pipe(body);
        const stored = await rules.store({ stream: body, file_name: fileName, content_type: type });
        if (tooLarge || (stream as Readable & { truncated?: boolean }).truncated) {
          await rules.discard(stored);
          throw new HttpError(413, rules.texts.tooLarge(fileName), close);
        }
        return { file_name: fileName, content_type: type, stored };
      })();
      job.catch((error: unknown) => fail(error instanceof HttpError ? error : new HttpError(400, rules.texts.malformed, close)));
      jobs.push(job);
    });
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(new HttpError(422, `The field ${JSON.stringify(name.slice(0, 40))} is too long`, close));
      // Sent twice, a field has no one value: which one a reader took would depend on the reader (the first was kept).
      else if (Object.hasOwn(fields, name)) fail(new HttpError(422, `The field ${JSON.stringify(name.slice(0, 40))} is given more than once`, close));
      else if (!['__proto__', 'constructor', 'prototype'].includes(name)) fields[name] = value;
    });
    parser.on('filesLimit', () => fail(new HttpError(413, rules.texts.tooMany, close)));
    parser.on('partsLimit', () => fail(new HttpError(413, rules.texts.tooMany, close)));
    parser.on('fieldsLimit', () => fail(new HttpError(413, rules.texts.tooManyFields ?? rules.texts.tooMany, close)));
    // busboy refuses a part whose headers hold a byte no header may (a NUL in a file name): the client's input, not a
    // broken request, so it is answered as such.
    parser.on('error', (error: Error) => fail(error.message === 'Malformed part header' ? new HttpError(422, API_TEXTS.malformedPartHeader, close) : new HttpError(400, rules.texts.malformed, close)));
    parser.on('close', () => {
      void Promise.allSettled(jobs).then(() => {
        if (!failed) resolve();
      });
    });
    req.on('aborted', () => fail(new HttpError(400, rules.texts.malformed, close)));
    stopWatching = watchUploadProgress(req, (idleMs) => fail(new HttpError(408, API_TEXTS.uploadStalled(Number((idleMs / 1000).toFixed(1))), close)));
    req.on('error', () => fail(new HttpError(400, rules.texts.malformed, close)));
    req.pipe(parser);
  });

  try {
    await outcome;
    stopWatching();
  } catch (error) {
    stopWatching();
    // Whatever was stored goes, once every file has settled.
    void Promise.allSettled(jobs).then(async (settled) => {
      for (const result of settled) if (result.status === 'fulfilled') await rules.discard(result.value.stored).catch(() => undefined);
    });
    throw error;
  }
  const files: Array<ReceivedFile<S>> = [];
  for (const job of jobs) files.push(await job);
  return { fields, files };
}
