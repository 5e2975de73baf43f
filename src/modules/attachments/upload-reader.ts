import type { Writable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import '@fastify/multipart';
import { DomainError, Errors } from '../../common/errors/domain-error';
import { MAX_ATTACHMENT_BYTES } from './attachments.constants';

/** One uploaded file, still streaming from the request. */
export interface IncomingUpload {
  fileName: string | undefined;
  mimetype: string | undefined;
  /**
   * Streams the file into `dest` and returns it. If the file part has already failed (the body
   * ended before its closing boundary, the client went away) this throws the 400; if it fails
   * later, `dest` is destroyed with it, instead of waiting forever for bytes that will not come.
   */
  pipeTo<T extends Writable>(dest: T): T;
  /** True once the stream has ended when the file was larger than the limit (MAX_ATTACHMENT_BYTES unless given). */
  truncated(): boolean;
  /** Discards whatever was not consumed, so the request always completes. */
  drain(): void;
}

/** Why a file part stopped before its end, as the client sees it (parser messages are not shown). */
const incomplete = (e: unknown): Error =>
  e instanceof DomainError ? e : Errors.validation('Malformed multipart body: the file part ends before the closing boundary');

/**
 * Reads the multipart field `file` (400 when the request is not multipart or has no such file).
 * The parser cuts the stream at `maxBytes` (MAX_ATTACHMENT_BYTES unless given) and keeps consuming
 * the request, so a too-large file is detected (413) without buffering it and without resetting
 * the connection.
 */
export async function readUpload(req: FastifyRequest, maxBytes = MAX_ATTACHMENT_BYTES): Promise<IncomingUpload> {
  if (typeof req.isMultipart !== 'function' || !req.isMultipart()) {
    throw Errors.validation('Send the file as multipart/form-data in the field "file"');
  }
  let part: Awaited<ReturnType<FastifyRequest['file']>>;
  try {
    part = await req.file({ limits: { fileSize: maxBytes, files: 1, fields: 20, parts: 25 }, throwFileSizeLimit: false });
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
  // The parser may fail the part while the caller is still checking access (an unterminated body
  // is seen as soon as the request ends): keep the failure so pipeTo can report it afterwards.
  let failure: unknown;
  stream.on('error', (e) => (failure ??= e));
  return {
    fileName: part.filename,
    mimetype: part.mimetype,
    pipeTo: (dest) => {
      if (failure !== undefined || (stream.destroyed && !stream.readableEnded)) throw incomplete(failure);
      // The consumer may attach to `dest` only after an await (the store opens its transaction or
      // request first): until then a failure stays on `dest` (errored) for its reader to report.
      dest.on('error', () => undefined);
      const fail = (e?: unknown) => dest.destroy(incomplete(e));
      stream.once('error', fail);
      stream.once('close', () => {
        if (!stream.readableEnded) fail(failure);
      });
      return stream.pipe(dest);
    },
    truncated: () => stream.truncated,
    drain: () => {
      if (!stream.readableEnded && !stream.destroyed) stream.resume();
    },
  };
}
