import { DomainError } from '../../common/errors/domain-error';
import { GIF_WITH_METADATA, JPEG_WITH_METADATA, PNG_1x1, PNG_WITH_METADATA, pngChunk, pngWith, WEBP_WITH_METADATA } from '../../../test/support/images';
import { avatarTypeOf, cleanAvatar } from './avatar-image';

const status = (f: () => unknown): number | undefined => {
  try {
    f();
  } catch (e) {
    return e instanceof DomainError ? e.status : -1;
  }
  return undefined;
};
const has = (b: Buffer, s: string) => b.includes(Buffer.from(s, 'latin1'));

describe('cleanAvatar: type by signature, metadata removed, malformed files refused', () => {
  it('PNG: text and EXIF chunks go, the image chunks stay byte for byte', () => {
    const r = cleanAvatar(PNG_WITH_METADATA);
    expect(r.type).toBe('image/png');
    expect(r.bytes.equals(PNG_1x1)).toBe(true);
    expect(has(r.bytes, 'secret')).toBe(false);
    expect(cleanAvatar(PNG_1x1).bytes.equals(PNG_1x1)).toBe(true);
  });

  it('JPEG: APP1 (EXIF, XMP), comments and trailing bytes go; JFIF, tables, frame and scan stay', () => {
    const r = cleanAvatar(JPEG_WITH_METADATA);
    expect(r.type).toBe('image/jpeg');
    expect(has(r.bytes, 'secret')).toBe(false);
    expect(has(r.bytes, 'JFIF')).toBe(true);
    expect(r.bytes.subarray(-2).equals(Buffer.from([0xff, 0xd9]))).toBe(true);
    expect(r.bytes.includes(Buffer.from([0x12, 0xff, 0x00, 0x34, 0xff, 0xd0, 0x56]))).toBe(true); // entropy data with stuffing and a restart
  });

  it('GIF: comment and application extensions go, the graphic control and the image stay', () => {
    const r = cleanAvatar(GIF_WITH_METADATA);
    expect(r.type).toBe('image/gif');
    expect(has(r.bytes, 'secret')).toBe(false);
    expect(r.bytes.includes(Buffer.from([0x21, 0xf9, 4]))).toBe(true);
    expect(r.bytes[r.bytes.length - 1]).toBe(0x3b);
  });

  it('WebP: EXIF and XMP chunks and their VP8X flags go; the RIFF size is rewritten', () => {
    const r = cleanAvatar(WEBP_WITH_METADATA);
    expect(r.type).toBe('image/webp');
    expect(has(r.bytes, 'secret')).toBe(false);
    expect(r.bytes.readUInt32LE(4)).toBe(r.bytes.length - 8);
    expect(r.bytes[20] & (0x08 | 0x04)).toBe(0);
    expect(r.bytes[20] & 0x10).toBe(0x10);
  });

  it('anything else, and malformed or truncated structures, are a 400', () => {
    expect(avatarTypeOf(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(status(() => cleanAvatar(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')))).toBe(400);
    expect(status(() => cleanAvatar(Buffer.from('BM not a bitmap we take')))).toBe(400);
    expect(status(() => cleanAvatar(PNG_1x1.subarray(0, 40)))).toBe(400);
    const badCrc = Buffer.from(PNG_1x1);
    badCrc[30] ^= 0xff;
    expect(status(() => cleanAvatar(badCrc))).toBe(400);
    expect(status(() => cleanAvatar(pngWith(pngChunk('ZZZZ', Buffer.alloc(1)))))).toBe(400); // unknown critical chunk
    expect(status(() => cleanAvatar(JPEG_WITH_METADATA.subarray(0, 60)))).toBe(400);
    expect(status(() => cleanAvatar(GIF_WITH_METADATA.subarray(0, GIF_WITH_METADATA.length - 1)))).toBe(400);
    expect(status(() => cleanAvatar(WEBP_WITH_METADATA.subarray(0, 30)))).toBe(400);
    const wrongCrc = Buffer.from(PNG_1x1);
    wrongCrc.writeUInt32BE(100_000, 16);
    expect(status(() => cleanAvatar(wrongCrc))).toBe(400); // checksum no longer matches
    const ihdr = Buffer.from(PNG_1x1.subarray(16, 29));
    ihdr.writeUInt32BE(9000, 0); // a well-formed header declaring a 9000-pixel-wide canvas
    const huge = Buffer.concat([PNG_1x1.subarray(0, 8), pngChunk('IHDR', ihdr), PNG_1x1.subarray(33)]);
    expect(() => cleanAvatar(huge)).toThrow('Avatars are at most 8192×8192 pixels');
  });

  it('fuzz: random mutations never throw anything but a 400', () => {
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    for (const base of [PNG_WITH_METADATA, JPEG_WITH_METADATA, GIF_WITH_METADATA, WEBP_WITH_METADATA]) {
      for (let i = 0; i < 400; i++) {
        const b = Buffer.from(base.subarray(0, Math.max(12, Math.floor(rand() * base.length) + 1)));
        for (let k = 0; k < 3; k++) b[12 + Math.floor(rand() * (b.length - 12))] = Math.floor(rand() * 256);
        const s = status(() => cleanAvatar(b));
        expect(s === undefined || s === 400).toBe(true);
      }
    }
  });
});
