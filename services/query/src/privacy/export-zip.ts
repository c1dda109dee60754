import { displayFileName, recordFileName, type PersonalDataExport } from '@telemed/contracts';
import { BlobErasedError, BlobNotFoundError, HttpError, StreamedBody, type BlobStore, type ReadStore } from '@telemed/platform';
import type { Readable } from 'node:stream';
import yazl from 'yazl';
import { RECORD_FILES, type RecordFileDoc } from '../records/projection';
import { BLOG_IMAGES, type BlogImageDoc } from '../blogs/projection';

/** A file name's extension for a picture's type (the archive's reader opens it by name). */
function imageExtension(contentType: string): string {
  return ({ 'image/jpeg': '.jpg', 'image/png': '.png', 'image/gif': '.gif', 'image/webp': '.webp' } as Record<string, string>)[contentType] ?? '';
}

/**
 * `?format=zip`: the same JSON as `export.json`, and each file of the person's records under
 * `files/{file_id}/{name}` (decrypted, as the download route gives it). Every blob is opened before the first byte
 * is sent, so a missing one is listed in `files/missing.txt` instead of breaking the archive half-way.
 */
export async function exportZip(readStore: ReadStore, blobs: BlobStore | undefined, me: string, body: PersonalDataExport): Promise<StreamedBody> {
  if (!blobs) throw new HttpError(503, 'The record files cannot be read by this service');
  const docs = await readStore.collection<RecordFileDoc>(RECORD_FILES).find({ patient_id: me });
  const images = await readStore.collection<BlogImageDoc>(BLOG_IMAGES).find({ author_id: me });
  // Each file with its path in the archive and how it is named in files/missing.txt if it cannot be read.
  const wanted = [
    ...docs.map((doc) => ({ blob_id: doc.blob_id, path: `files/${doc.file_id}/${recordFileName(doc.file_name, doc.content_type).replace(/[\\/:*?<>|]/g, '_')}`, label: `${doc.file_id} ${displayFileName(doc.file_name)}` })),
    ...images.map((image) => ({ blob_id: image.blob_id, path: `files/blog-images/${image._id}${imageExtension(image.content_type)}`, label: `blog image ${image._id}` })),
  ];
  const opened: Array<{ path: string; stream: Readable }> = [];
  const missing: string[] = [];
  for (const file of wanted) {
    try {
      opened.push({ path: file.path, stream: (await blobs.open(file.blob_id)) as Readable });
    } catch (error) {
      if (!(error instanceof BlobNotFoundError || error instanceof BlobErasedError)) throw error;
      missing.push(`${file.label}: ${error instanceof BlobErasedError ? 'erased' : 'not found'}`);
    }
  }
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from(JSON.stringify(body, null, 2) + '\n'), 'export.json');
  for (const { path, stream } of opened) zip.addReadStream(stream, path);
  if (missing.length) zip.addBuffer(Buffer.from(missing.join('\n') + '\n'), 'files/missing.txt');
  zip.end();
  return new StreamedBody(zip.outputStream, 'application/zip');
}
