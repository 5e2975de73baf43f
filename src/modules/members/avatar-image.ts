import { crc32 } from 'node:zlib';
import { Errors } from '../../common/errors/domain-error';

/** The image types an avatar may be, named by the file signature (never by the declared type). */
export type AvatarImageType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

/** A checked avatar: its type (from the signature) and its bytes with every metadata block removed. */
export interface CleanAvatar {
  type: AvatarImageType;
  bytes: Buffer;
}

/** Widest and tallest avatar accepted (the header's dimensions; a small file can declare a huge canvas). */
export const MAX_AVATAR_SIDE = 8192;

const PNG_SIG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const bad = (type: string, why: string) => Errors.validation(`The file is not a valid ${type} image (${why})`);

/** The avatar type named by the first bytes, or null (then the upload is refused). */
export function avatarTypeOf(b: Buffer): AvatarImageType | null {
  if (b.length >= 8 && b.subarray(0, 8).equals(PNG_SIG)) return 'image/png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 6 && (b.toString('latin1', 0, 6) === 'GIF87a' || b.toString('latin1', 0, 6) === 'GIF89a')) return 'image/gif';
  if (b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  return null;
}

/**
 * Checks an avatar's structure and removes its metadata: the type comes from the signature
 * (PNG, JPEG, GIF or WebP; anything else is a 400 whatever the declared type), the file is walked
 * block by block (a truncated or malformed structure is a 400) and only the blocks that draw the
 * image are kept. Dropped: PNG text, time, EXIF and ICC chunks; JPEG APP1..APP15 (EXIF, XMP, ICC,
 * Photoshop; APP14 "Adobe" is kept, it says how to decode the colors) and comments; GIF comment,
 * plain-text and application extensions (the NETSCAPE2.0 loop count stays); WebP EXIF, XMP and
 * ICCP chunks (and their VP8X flags). Anything after the image's end is dropped. The pixels are
 * not decoded: the bytes that draw them are copied unchanged.
 */
export function cleanAvatar(input: Buffer): CleanAvatar {
  const type = avatarTypeOf(input);
  if (!type) throw Errors.validation('Avatars must be PNG, JPEG, GIF or WebP images (checked by the file content)');
  switch (type) {
    case 'image/png':
      return { type, bytes: cleanPng(input) };
    case 'image/jpeg':
      return { type, bytes: cleanJpeg(input) };
    case 'image/gif':
      return { type, bytes: cleanGif(input) };
    case 'image/webp':
      return { type, bytes: cleanWebp(input) };
  }
}

const checkSides = (type: string, w: number, h: number): void => {
  if (w < 1 || h < 1) throw bad(type, 'empty canvas');
  if (w > MAX_AVATAR_SIDE || h > MAX_AVATAR_SIDE) throw Errors.validation(`Avatars are at most ${MAX_AVATAR_SIDE}×${MAX_AVATAR_SIDE} pixels`);
};

/** PNG chunks that draw the image (APNG's animation chunks included). */
const PNG_KEEP = new Set(['IHDR', 'PLTE', 'IDAT', 'IEND', 'tRNS', 'gAMA', 'cHRM', 'sRGB', 'sBIT', 'bKGD', 'pHYs', 'acTL', 'fcTL', 'fdAT']);

function cleanPng(b: Buffer): Buffer {
  const out: Buffer[] = [PNG_SIG];
  let p = 8;
  let first = true;
  for (;;) {
    if (p + 12 > b.length) throw bad('PNG', 'truncated chunk');
    const len = b.readUInt32BE(p);
    const name = b.toString('latin1', p + 4, p + 8);
    if (!/^[A-Za-z]{4}$/.test(name) || len > 0x7fffffff || p + 12 + len > b.length) throw bad('PNG', 'malformed chunk');
    const chunk = b.subarray(p, p + 12 + len);
    if (crc32(b.subarray(p + 4, p + 8 + len)) !== b.readUInt32BE(p + 8 + len)) throw bad('PNG', `bad checksum in ${name}`);
    if (first) {
      if (name !== 'IHDR' || len !== 13) throw bad('PNG', 'no header');
      checkSides('PNG', b.readUInt32BE(p + 8), b.readUInt32BE(p + 12));
      first = false;
    }
    // critical chunks (upper-case first letter) other than the known ones cannot be skipped safely
    if (!PNG_KEEP.has(name) && name[0] === name[0].toUpperCase()) throw bad('PNG', `unknown critical chunk ${name}`);
    if (PNG_KEEP.has(name)) out.push(chunk);
    p += 12 + len;
    if (name === 'IEND') return Buffer.concat(out);
  }
}

function cleanJpeg(b: Buffer): Buffer {
  const out: Buffer[] = [b.subarray(0, 2)];
  let p = 2;
  let frame = false;
  for (;;) {
    if (p + 2 > b.length || b[p] !== 0xff) throw bad('JPEG', 'truncated or malformed segment');
    let m = b[p + 1];
    while (m === 0xff && p + 2 < b.length) m = b[++p + 1]; // fill bytes
    if (m === 0xd9) {
      if (!frame) throw bad('JPEG', 'no frame');
      out.push(Buffer.from([0xff, 0xd9]));
      return Buffer.concat(out);
    }
    if (m === 0x01 || (m >= 0xd0 && m <= 0xd7)) {
      out.push(b.subarray(p, p + 2));
      p += 2;
      continue;
    }
    if (p + 4 > b.length) throw bad('JPEG', 'truncated segment');
    const len = b.readUInt16BE(p + 2);
    if (len < 2 || p + 2 + len > b.length) throw bad('JPEG', 'truncated segment');
    const seg = b.subarray(p, p + 2 + len);
    const isApp = m >= 0xe0 && m <= 0xef;
    const keepApp = (m === 0xe0 && seg.toString('latin1', 4, 9) === 'JFIF\0') || (m === 0xee && seg.toString('latin1', 4, 9) === 'Adobe');
    if (m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc) {
      if (len < 8) throw bad('JPEG', 'short frame header');
      checkSides('JPEG', b.readUInt16BE(p + 7), b.readUInt16BE(p + 5));
      frame = true;
    }
    if (!(isApp && !keepApp) && m !== 0xfe) out.push(seg);
    p += 2 + len;
    if (m === 0xda) {
      // entropy-coded data: up to the next marker that is not a stuffed 0xFF00 or a restart marker
      const start = p;
      while (p + 1 < b.length && !(b[p] === 0xff && b[p + 1] !== 0 && !(b[p + 1] >= 0xd0 && b[p + 1] <= 0xd7))) p++;
      if (p + 1 >= b.length) throw bad('JPEG', 'no end of image');
      out.push(b.subarray(start, p));
    }
  }
}

/** Skips GIF data sub-blocks starting at `p`; returns the offset after the terminator. */
function gifSubBlocks(b: Buffer, p: number): number {
  for (;;) {
    if (p >= b.length) throw bad('GIF', 'truncated data');
    const n = b[p];
    if (n === 0) return p + 1;
    p += 1 + n;
  }
}

function cleanGif(b: Buffer): Buffer {
  if (b.length < 13) throw bad('GIF', 'truncated header');
  checkSides('GIF', b.readUInt16LE(6), b.readUInt16LE(8));
  const packed = b[10];
  let p = 13 + (packed & 0x80 ? 3 * 2 ** ((packed & 7) + 1) : 0);
  if (p > b.length) throw bad('GIF', 'truncated color table');
  const out: Buffer[] = [b.subarray(0, p)];
  let images = 0;
  for (;;) {
    if (p >= b.length) throw bad('GIF', 'no trailer');
    const kind = b[p];
    if (kind === 0x3b) {
      if (!images) throw bad('GIF', 'no image');
      out.push(Buffer.from([0x3b]));
      return Buffer.concat(out);
    }
    if (kind === 0x21) {
      if (p + 2 > b.length) throw bad('GIF', 'truncated extension');
      const label = b[p + 1];
      const end = gifSubBlocks(b, p + 2);
      const loop = label === 0xff && b[p + 2] === 11 && ['NETSCAPE2.0', 'ANIMEXTS1.0'].includes(b.toString('latin1', p + 3, p + 14));
      if (label === 0xf9 || loop) out.push(b.subarray(p, end));
      p = end;
    } else if (kind === 0x2c) {
      if (p + 10 > b.length) throw bad('GIF', 'truncated image descriptor');
      const local = b[p + 9];
      const data = p + 10 + (local & 0x80 ? 3 * 2 ** ((local & 7) + 1) : 0);
      if (data + 1 > b.length) throw bad('GIF', 'truncated image');
      const end = gifSubBlocks(b, data + 1);
      out.push(b.subarray(p, end));
      images++;
      p = end;
    } else {
      throw bad('GIF', 'unknown block');
    }
  }
}

const WEBP_KEEP = new Set(['VP8 ', 'VP8L', 'VP8X', 'ALPH', 'ANIM', 'ANMF']);

function cleanWebp(b: Buffer): Buffer {
  const riffEnd = 8 + b.readUInt32LE(4);
  if (riffEnd > b.length || riffEnd < 12) throw bad('WebP', 'truncated file');
  const chunks: Buffer[] = [];
  let p = 12;
  let image = false;
  while (p < riffEnd) {
    if (p + 8 > riffEnd) throw bad('WebP', 'truncated chunk');
    const name = b.toString('latin1', p, p + 4);
    const len = b.readUInt32LE(p + 4);
    const end = p + 8 + len + (len & 1);
    if (p + 8 + len > riffEnd) throw bad('WebP', 'truncated chunk');
    if (WEBP_KEEP.has(name)) {
      const chunk = Buffer.from(b.subarray(p, Math.min(end, riffEnd)));
      if (name === 'VP8X') {
        if (len < 10) throw bad('WebP', 'short VP8X');
        chunk[8] &= ~(0x20 | 0x08 | 0x04); // no ICC profile, EXIF or XMP any more
        checkSides('WebP', 1 + chunk.readUIntLE(12, 3), 1 + chunk.readUIntLE(15, 3));
      }
      if (name === 'VP8 ' || name === 'VP8L' || name === 'ANMF') image = true;
      chunks.push(chunk.length % 2 ? Buffer.concat([chunk, Buffer.alloc(1)]) : chunk);
    }
    p = end;
  }
  if (!image) throw bad('WebP', 'no image data');
  const body = Buffer.concat(chunks);
  const head = Buffer.alloc(12);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(4 + body.length, 4);
  head.write('WEBP', 8, 'latin1');
  return Buffer.concat([head, body]);
}
