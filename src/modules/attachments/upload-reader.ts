import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import '@fastify/multipart';
import { DomainError, Errors } from '../../common/errors/domain-error';
import { MAX_ATTACHMENT_BYTES } from './attachments.constants';

/** One uploaded file, still streaming from the request. */
export interface IncomingUpload {
  fileName: string | undefined;
  mimetype: string | undefined;
  stream: Readable;
  /** True once the stream has ended when the file was larger than MAX_ATTACHMENT_BYTES. */
  truncated(): boolean;
  /** Discards whatever was not consumed, so the request always completes. */
  drain(): void;
}

/**
 * Reads the multipart field `file` (400 when the request is not multipart or has no such file).
 * The parser cuts the stream at MAX_ATTACHMENT_BYTES and keeps consuming the request, so a
 * too-large file is detected (413) without buffering it and without resetting the connection.
 */
export async function readUpload(req: FastifyRequest): Promise<IncomingUpload> {
  if (typeof req.isMultipart !== 'function' || !req.isMultipart()) {
    throw Errors.validation('Send the file as multipart/form-data in the field "file"');
  }
  let part: Awaited<ReturnType<FastifyRequest['file']>>;
  try {
    part = await req.file({ limits: { fileSize: MAX_ATTACHMENT_BYTES, files: 1, fields: 20, parts: 25 }, throwFileSizeLimit: false });
  } catch (e) {
    if (e instanceof DomainError) throw e;
    const status = (e as { statusCode?: number }).statusCode;
    if (status === 413) throw Errors.tooLarge('Too many parts in the upload');
    throw Errors.validation('Malformed multipart body');
  }
  if (!part) throw Errors.validation('file is required (multipart field "file")');
  if (part.fieldname !== 'file') {
    part.file.resume();
    throw Errors.validation('The file must be sent in the multipart field "file"');
  }
  const stream = part.file;
  return {
    fileName: part.filename,
    mimetype: part.mimetype,
    stream,
    truncated: () => stream.truncated,
    drain: () => {
      if (!stream.readableEnded && !stream.destroyed) stream.resume();
    },
  };
}
