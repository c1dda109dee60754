import type { Readable } from 'node:stream';
import sharp from 'sharp';

/** The image types re-encoded without their metadata, each in its own format. */
export type PublicImageType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';

/** The largest picture decoded (in pixels): a small file that claims a huge canvas is refused, not decoded. */
const MAX_PIXELS = 40_000_000;

/**
 * The picture re-encoded with none of its metadata: a phone's photo carries where it was taken (Exif GPS), when, on
 * which device and often the owner's name, and a published post's pictures are anyone's to download. Exif's
 * orientation is applied first so the picture stands as it was shown; colour profiles go too (sRGB is assumed). The
 * pixels are decoded and written again, so what is stored is a plain image of its type whatever else the file held.
 * A file that does not decode fails the stream; what browsers draw despite small faults (a bad checksum) decodes,
 * only a truncated picture fails.
 */
export function withoutMetadata(input: Readable, type: PublicImageType): Readable {
  const decode = sharp({ animated: type === 'image/gif' || type === 'image/webp', limitInputPixels: MAX_PIXELS, failOn: 'truncated' }).rotate();
  const encode =
    type === 'image/jpeg' ? decode.jpeg({ quality: 90, mozjpeg: true })
    : type === 'image/png' ? decode.png()
    : type === 'image/gif' ? decode.gif()
    : decode.webp({ quality: 90 });
  input.on('error', (error) => encode.destroy(error));
  return input.pipe(encode);
}
