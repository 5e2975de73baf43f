import { crc32 } from 'node:zlib';

/** Small well-formed images for avatar tests, with and without metadata blocks. */

/** A PNG chunk with its length and checksum. */
export function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** The 1×1 PNG of the conformance suite. */
export const PNG_1x1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** PNG_1x1 with chunks `extra` inserted after IHDR (8 + 25 bytes). */
export const pngWith = (...extra: Buffer[]): Buffer => Buffer.concat([PNG_1x1.subarray(0, 33), ...extra, PNG_1x1.subarray(33)]);

/** A PNG with a text chunk naming the camera and an EXIF chunk. */
export const PNG_WITH_METADATA = pngWith(pngChunk('tEXt', Buffer.from('Comment\0secret-camera-serial-123')), pngChunk('eXIf', Buffer.from('MM\0*GPS-secret')));

/** A PNG of exactly `size` bytes (padded by a private ancillary chunk, which is stripped). */
export function pngOfSize(size: number): Buffer {
  const pad = size - PNG_1x1.length - 12;
  return pngWith(pngChunk('prVt', Buffer.alloc(pad, 7)));
}

const seg = (marker: number, data: Buffer): Buffer => {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(data.length + 2, 2);
  return Buffer.concat([head, data]);
};

/** A structurally complete baseline JPEG (1×1) with JFIF, an EXIF APP1 with GPS text, an XMP APP1 and a comment. */
export const JPEG_WITH_METADATA = Buffer.concat([
  Buffer.from([0xff, 0xd8]),
  seg(0xe0, Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1')),
  seg(0xe1, Buffer.from('Exif\0\0MM\0*GPS-secret-location', 'latin1')),
  seg(0xe1, Buffer.from('http://ns.adobe.com/xap/1.0/\0<x:xmpmeta>secret-author</x:xmpmeta>', 'latin1')),
  seg(0xfe, Buffer.from('secret-comment', 'latin1')),
  seg(0xdb, Buffer.concat([Buffer.from([0]), Buffer.alloc(64, 1)])),
  seg(0xc0, Buffer.from([8, 0, 1, 0, 1, 1, 1, 0x11, 0])),
  seg(0xc4, Buffer.concat([Buffer.from([0]), Buffer.alloc(16, 0), Buffer.from([])])),
  seg(0xda, Buffer.from([1, 1, 0, 0, 0x3f, 0])),
  Buffer.from([0x12, 0xff, 0x00, 0x34, 0xff, 0xd0, 0x56]),
  Buffer.from([0xff, 0xd9]),
  Buffer.from('trailing-secret', 'latin1'),
]);

/** A 1×1 GIF89a with a graphic control extension, a comment extension and an XMP application extension. */
export const GIF_WITH_METADATA = Buffer.concat([
  Buffer.from('GIF89a', 'latin1'),
  Buffer.from([1, 0, 1, 0, 0x80, 0, 0]),
  Buffer.from([0, 0, 0, 255, 255, 255]),
  Buffer.from([0x21, 0xfe, 14]),
  Buffer.from('secret-comment', 'latin1'),
  Buffer.from([0]),
  Buffer.from([0x21, 0xff, 11]),
  Buffer.from('XMP DataXMP', 'latin1'),
  Buffer.from([13]),
  Buffer.from('secret-author', 'latin1'),
  Buffer.from([0]),
  Buffer.from([0x21, 0xf9, 4, 1, 0, 0, 0, 0]),
  Buffer.from([0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0]),
  Buffer.from([2, 2, 0x44, 0x01, 0]),
  Buffer.from([0x3b]),
]);

const riffChunk = (name: string, data: Buffer): Buffer => {
  const head = Buffer.alloc(8);
  head.write(name, 0, 'latin1');
  head.writeUInt32LE(data.length, 4);
  return Buffer.concat([head, data, data.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);
};

/** A WebP (VP8X + VP8L) declaring and carrying EXIF and XMP chunks. */
export const WEBP_WITH_METADATA = (() => {
  const vp8x = Buffer.alloc(10);
  vp8x[0] = 0x08 | 0x04 | 0x10; // EXIF, XMP, alpha
  const body = Buffer.concat([
    riffChunk('VP8X', vp8x),
    riffChunk('VP8L', Buffer.from([0x2f, 0, 0, 0, 0x10, 0x07, 0x10, 0x11, 0x11, 0x88, 0x88, 0xfe, 0x07, 0])),
    riffChunk('EXIF', Buffer.from('MM\0*GPS-secret-location', 'latin1')),
    riffChunk('XMP ', Buffer.from('<x:xmpmeta>secret-author</x:xmpmeta>', 'latin1')),
  ]);
  const head = Buffer.alloc(12);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(body.length + 4, 4);
  head.write('WEBP', 8, 'latin1');
  return Buffer.concat([head, body]);
})();
