import { createHash, type Hash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { Errors } from '../../common/errors/domain-error';

/** Image types served inline; each is accepted only when the bytes carry its signature. */
export const INLINE_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type InlineImageType = (typeof INLINE_IMAGE_TYPES)[number];

/** The image type named by the file signature (magic bytes), or null. */
export function sniffImage(head: Buffer): InlineImageType | null {
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (head.length >= 6 && ['GIF87a', 'GIF89a'].includes(head.subarray(0, 6).toString('latin1'))) return 'image/gif';
  if (head.length >= 12 && head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  return null;
}

const IMAGE_EXT: Record<string, InlineImageType> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };
const MIME_RE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

/**
 * The stored content type. Declared images (by MIME type or by a png/jpg/gif/webp extension) must
 * be one of the four inline types and their bytes must carry that type's signature (400
 * otherwise); other declared images (SVG, BMP, ...) are rejected. Anything else keeps its declared
 * type (or application/octet-stream) and is only ever served as a download.
 */
export function decideContentType(declared: string | undefined, fileName: string, head: Buffer): string {
  const mime = (declared ?? '').split(';')[0].trim().toLowerCase();
  const sniffed = sniffImage(head);
  const ext = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase();
  const normalized = mime === 'image/jpg' || mime === 'image/pjpeg' ? 'image/jpeg' : mime;
  if (normalized.startsWith('image/')) {
    if (!(INLINE_IMAGE_TYPES as readonly string[]).includes(normalized)) {
      throw Errors.validation('Only PNG, JPEG, GIF and WebP images are accepted');
    }
    if (sniffed !== normalized) throw Errors.validation(`The file content is not a valid ${normalized.slice(6).toUpperCase()} image`);
    return normalized;
  }
  if (ext && IMAGE_EXT[ext] && (!mime || mime === 'application/octet-stream')) {
    if (sniffed !== IMAGE_EXT[ext]) throw Errors.validation(`The file content is not a valid ${ext.toUpperCase()} image`);
    return sniffed;
  }
  if (sniffed && (!mime || mime === 'application/octet-stream')) return sniffed;
  return MIME_RE.test(mime) ? mime : 'application/octet-stream';
}

/** Half of a surrogate pair without its other half (e.g. a name cut at 255): not UTF-8, and `encodeURIComponent` throws on it. */
const LONE_SURROGATE_RE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const wellFormed = (s: string): string => s.replace(LONE_SURROGATE_RE, '\ufffd');

/** A file name safe to store and to put in a header: no path, no control characters, at most 255 characters. */
export function safeFileName(name: string | undefined): string {
  const full = name ?? '';
  const base = full.slice(Math.max(full.lastIndexOf('/'), full.lastIndexOf('\\')) + 1);
  const cleaned = base
    // eslint-disable-next-line no-control-regex -- strips control characters on purpose
    .replace(/[\u0000-\u001f\u007f"]/g, '')
    .replace(/^\.+/, '')
    .trim();
  return wellFormed((cleaned || 'file').slice(0, 255));
}

/** `Content-Disposition` with an ASCII fallback and the RFC 5987 UTF-8 name. */
export function contentDisposition(kind: 'inline' | 'attachment', fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/[\\"]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(wellFormed(fileName))}`;
}

/** Counts, hashes and keeps the first bytes of a stream passing through. */
export class UploadInspector extends Transform {
  size = 0;
  private readonly hash: Hash = createHash('sha256');
  private headChunks: Buffer[] = [];
  private headLength = 0;

  constructor(private readonly max: number) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.max) {
      cb(Errors.tooLarge(`Attachments are limited to ${this.max} bytes`));
      return;
    }
    if (this.headLength < 16) {
      this.headChunks.push(chunk.subarray(0, 16 - this.headLength));
      this.headLength += Math.min(chunk.length, 16 - this.headLength);
    }
    this.hash.update(chunk);
    cb(null, chunk);
  }

  get head(): Buffer {
    return Buffer.concat(this.headChunks);
  }

  digest(): string {
    return this.hash.digest('hex');
  }
}
