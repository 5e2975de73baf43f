import { Readable } from 'node:stream';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { Errors } from '../../../../common/errors/domain-error';
import { ObjectStorage } from '../../../../common/storage/object-storage';
import { avatarTypeOf, type AvatarImageType } from '../../avatar-image';
import { AvatarsRepository } from '../../avatars.repository';
import { GetAvatarQuery } from './get-avatar.query';

/** An avatar's bytes and their type. */
export interface AvatarFile {
  type: AvatarImageType;
  stream: Readable;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const OBJECT_RE = /^[0-9a-f]{48}$/;

/**
 * The current avatar of a member (public, like the hosted avatars bucket: the URL is unguessable
 * and names nothing else). Only an object that is some member's avatar right now is served: a
 * replaced or deleted avatar is 404 at once, and no other stored object (attachments share the
 * store) can be read through this route. The type comes from the stored bytes' signature.
 */
@QueryHandler(GetAvatarQuery)
export class GetAvatarHandler implements IQueryHandler<GetAvatarQuery, AvatarFile> {
  constructor(
    private readonly avatars: AvatarsRepository,
    private readonly storage: ObjectStorage,
  ) {}

  async execute({ orgId, objectId }: GetAvatarQuery): Promise<AvatarFile> {
    const key = `${orgId}/${objectId}`;
    if (!UUID_RE.test(orgId) || !OBJECT_RE.test(objectId) || !(await this.avatars.isShown(orgId, key))) throw Errors.notFound('Avatar not found');
    const stream = await this.storage.get(key);
    if (!stream) throw Errors.notFound('Avatar not found');
    const it = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    const first = await it.next();
    const type = first.done ? null : avatarTypeOf(first.value);
    if (!type) {
      stream.destroy();
      throw Errors.notFound('Avatar not found');
    }
    async function* rest(): AsyncGenerator<Buffer> {
      yield first.value as Buffer;
      for (let n = await it.next(); !n.done; n = await it.next()) yield n.value;
    }
    return { type, stream: Readable.from(rest()) };
  }
}
