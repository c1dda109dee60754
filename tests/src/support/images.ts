import sharp from 'sharp';

/** A small real PNG (it decodes): what a doctor's picture is, now that pictures are decoded and written again. */
export function realPng(colour = '#3a7d6b'): Promise<Buffer> {
  return sharp({ create: { width: 8, height: 6, channels: 3, background: colour } }).png().toBuffer();
}

/** The marker written into the photo's metadata, to look for in what is served. */
export const METADATA_MARKER = 'GPSSECRET-Dr-Home';

/** A phone-like JPEG photo with Exif metadata naming its owner and describing where it was taken. */
export function photoWithMetadata(): Promise<Buffer> {
  return sharp({ create: { width: 16, height: 12, channels: 3, background: '#c0a080' } })
    .jpeg()
    .withExif({ IFD0: { Artist: METADATA_MARKER, ImageDescription: `Taken at home, ${METADATA_MARKER}`, Make: 'PhoneMaker' } })
    .toBuffer();
}

/** The picture's decoded pixels: two files show the same picture when these are equal (a stored picture is re-encoded). */
export function pixelsOf(image: Buffer): Promise<Buffer> {
  return sharp(image).raw().toBuffer();
}
