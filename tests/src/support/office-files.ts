import { strToU8, zipSync } from 'fflate';

/**
 * Minimal real office files for the upload tests: a Word 2007+ document (a ZIP whose [Content_Types].xml declares
 * word/document.xml as the main part), an Excel workbook made the same way, a ZIP of something else, and Word 97
 * (.doc) and Excel 97 files as OLE compound files, each whole and valid as its format needs, built here byte by byte.
 */

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
const contentTypes = (part: string, type: string) =>
  `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/${part}" ContentType="${type}"/></Types>`;
const rels = (target: string) =>
  `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="${target}"/></Relationships>`;

/** A one-paragraph .docx, its parts deflated as Word writes them. */
export function minimalDocx(text = 'Rx: Paracetamol 500 mg'): Buffer {
  return Buffer.from(
    zipSync({
      '[Content_Types].xml': strToU8(contentTypes('word/document.xml', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml')),
      '_rels/.rels': strToU8(rels('word/document.xml')),
      'word/document.xml': strToU8(`${XML}<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>${text}</w:t></w:r></w:p></w:body></w:document>`),
    }),
  );
}

/** A one-sheet .xlsx: an Office Open XML package, but not a Word document. */
export function minimalXlsx(): Buffer {
  return Buffer.from(
    zipSync({
      '[Content_Types].xml': strToU8(contentTypes('xl/workbook.xml', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml')),
      '_rels/.rels': strToU8(rels('xl/workbook.xml')),
      'xl/workbook.xml': strToU8(`${XML}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheets/></workbook>`),
    }),
  );
}

/** A ZIP of a text file: what a renamed archive looks like. */
export function plainZip(): Buffer {
  return Buffer.from(zipSync({ 'notes.txt': strToU8('not a Word document') }));
}

const SECTOR = 512;
const FREESECT = 0xffffffff;
const ENDOFCHAIN = 0xfffffffe;
const FATSECT = 0xfffffffd;
const NOSTREAM = 0xffffffff;

function directoryEntry(name: string, type: 1 | 2 | 5, child: number, start: number, size: number): Buffer {
  const entry = Buffer.alloc(128);
  const encoded = Buffer.from(`${name}\0`, 'utf16le');
  encoded.copy(entry, 0);
  entry.writeUInt16LE(encoded.length, 64);
  entry.writeUInt8(type, 66);
  entry.writeUInt8(1, 67); // black
  entry.writeUInt32LE(NOSTREAM, 68);
  entry.writeUInt32LE(NOSTREAM, 72);
  entry.writeUInt32LE(child, 76);
  entry.writeUInt32LE(start, 116);
  entry.writeUInt32LE(size, 120);
  return entry;
}

/**
 * An OLE compound file (version 3, 512-byte sectors) holding one 4096-byte stream named `stream`: header, one FAT
 * sector, one directory sector (Root Entry and the stream), then the stream's eight sectors, chained in the FAT.
 */
function compoundFile(stream: string, magic: number): Buffer {
  const header = Buffer.alloc(SECTOR);
  Buffer.from('d0cf11e0a1b11ae1', 'hex').copy(header, 0);
  header.writeUInt16LE(0x003e, 24);
  header.writeUInt16LE(0x0003, 26);
  header.writeUInt16LE(0xfffe, 28);
  header.writeUInt16LE(9, 30); // 512-byte sectors
  header.writeUInt16LE(6, 32); // 64-byte mini sectors
  header.writeUInt32LE(1, 44); // one FAT sector
  header.writeUInt32LE(1, 48); // the directory in sector 1
  header.writeUInt32LE(4096, 56);
  header.writeUInt32LE(ENDOFCHAIN, 60);
  header.writeUInt32LE(ENDOFCHAIN, 68);
  header.writeUInt32LE(0, 76); // DIFAT[0]: the FAT is sector 0
  for (let i = 1; i < 109; i += 1) header.writeUInt32LE(FREESECT, 76 + i * 4);

  const streamSectors = 4096 / SECTOR;
  const fat = Buffer.alloc(SECTOR, 0xff);
  fat.writeUInt32LE(FATSECT, 0);
  fat.writeUInt32LE(ENDOFCHAIN, 4);
  for (let s = 0; s < streamSectors; s += 1) fat.writeUInt32LE(s === streamSectors - 1 ? ENDOFCHAIN : 3 + s, (2 + s) * 4);

  const directory = Buffer.concat([directoryEntry('Root Entry', 5, 1, ENDOFCHAIN, 0), directoryEntry(stream, 2, NOSTREAM, 2, 4096), Buffer.alloc(128), Buffer.alloc(128)]);
  for (const empty of [2, 3]) {
    directory.writeUInt32LE(NOSTREAM, empty * 128 + 68);
    directory.writeUInt32LE(NOSTREAM, empty * 128 + 72);
    directory.writeUInt32LE(NOSTREAM, empty * 128 + 76);
  }
  const data = Buffer.alloc(4096);
  data.writeUInt16LE(magic, 0);
  return Buffer.concat([header, fat, directory, data]);
}

/** A Word 97–2003 .doc: a compound file whose WordDocument stream starts with the FIB's magic 0xA5EC. */
export const minimalDoc = () => compoundFile('WordDocument', 0xa5ec);
/** An Excel 97–2003 .xls: the same container, a Workbook stream instead (BOF record 0x0809). */
export const minimalXls = () => compoundFile('Workbook', 0x0809);
