import { PassThrough, Readable } from 'node:stream';
import { Logger } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { newStorageKey, ObjectStorage } from '../../../../common/storage/object-storage';
import { TxRunner } from '../../../../database/tx-runner';
import type { IncomingUpload } from '../../../attachments/upload-reader';
import { avatarTarget, type AvatarOutcome } from '../../avatar-access';
import { AvatarCleanupSweeper } from '../../avatar-cleanup.sweeper';
import { cleanAvatar } from '../../avatar-image';
import { AVATAR_CONFLICT, avatarUrlOf, MAX_AVATAR_BYTES, STAGED_AVATAR_GRACE_SECONDS } from '../../avatars.constants';
import { AvatarsRepository } from '../../avatars.repository';
import type { AvatarUploaded } from '../../avatars.response';
import { UploadAvatarCommand } from './upload-avatar.command';

/** Thrown inside the transaction to roll it back when the compare-and-set finds the pointer changed. */
class PointerChanged extends Error {}

/** The whole file (at most MAX_AVATAR_BYTES: 413 above; 400 when empty). */
async function readAll(upload: IncomingUpload): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of upload.pipeTo(new PassThrough()) as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_AVATAR_BYTES) break;
    parts.push(chunk);
  }
  if (size > MAX_AVATAR_BYTES || upload.truncated()) throw Errors.tooLarge(`Avatars are limited to 2 MB (${MAX_AVATAR_BYTES} bytes)`);
  if (size === 0) throw Errors.validation('The file is empty');
  return Buffer.concat(parts);
}

/**
 * Sets a member's avatar (interface.md "Avatars"). Access first (avatarTarget), then the file:
 * at most 2 MB, a PNG, JPEG, GIF or WebP by its signature, stripped of metadata (cleanAvatar).
 *
 * The pointer (members.avatar_storage_key/avatar_url) changes by compare-and-set against the value
 * read before the object was stored: a concurrent change in between makes this request a 409
 * and leaves its own object to be removed, never an avatar nobody points at.
 * - Transactional store (PostgreSQL): object, compare-and-set and the retired object's queue row
 *   commit together; a lost race rolls the object back with the transaction.
 * - Otherwise (S3): a `staged` queue row is written before the object is stored (due only after
 *   STAGED_AVATAR_GRACE_SECONDS), and dropped in the compare-and-set's transaction; a crash
 *   anywhere leaves the object queued, never orphaned. A lost race makes the staged row due and
 *   cleans it at once.
 * The replaced object is removed right away when possible (200), else by the worker (202
 * `cleanup_pending: true`).
 */
@CommandHandler(UploadAvatarCommand)
export class UploadAvatarHandler implements ICommandHandler<UploadAvatarCommand, AvatarOutcome<AvatarUploaded>> {
  private readonly logger = new Logger(UploadAvatarHandler.name);

  constructor(
    private readonly avatars: AvatarsRepository,
    private readonly access: AccessPolicyService,
    private readonly storage: ObjectStorage,
    private readonly sweeper: AvatarCleanupSweeper,
    private readonly db: DataSource,
    private readonly tx: TxRunner,
  ) {}

  async execute({ actor, memberId, upload }: UploadAvatarCommand): Promise<AvatarOutcome<AvatarUploaded>> {
    const target = await avatarTarget(this.avatars, this.access, actor, memberId);
    const image = cleanAvatar(await readAll(upload));
    const orgId = actor.orgId;
    const expected = target.avatar_storage_key;
    const key = newStorageKey(orgId);
    const next = { key, url: avatarUrlOf(key) };
    let retired: string | null;

    if (this.storage.transactional) {
      try {
        retired = await this.db.transaction(async (m) => {
          await this.storage.put(key, Readable.from([image.bytes]), m);
          if (!(await this.avatars.swap(orgId, target.id, expected, next, m))) throw new PointerChanged();
          return expected ? this.avatars.queueCleanup(orgId, expected, 'retired', 0, m) : null;
        });
      } catch (e) {
        if (e instanceof PointerChanged) return { status: 409, body: { error: AVATAR_CONFLICT } };
        throw e;
      }
    } else {
      const staged = await this.avatars.queueCleanup(orgId, key, 'staged', STAGED_AVATAR_GRACE_SECONDS);
      try {
        await this.storage.put(key, Readable.from([image.bytes]));
        retired = await this.tx.run(async (m) => {
          if (!(await this.avatars.swap(orgId, target.id, expected, next, m))) throw new PointerChanged();
          // the staged row goes with the pointer change (a sweep that took it removed the object: lost too)
          if (!(await this.avatars.dropCleanup(orgId, staged, m))) throw new PointerChanged();
          return expected ? this.avatars.queueCleanup(orgId, expected, 'retired', 0, m) : null;
        });
      } catch (e) {
        await this.avatars.dueNow(orgId, staged).catch(() => undefined);
        const cleaned = await this.sweeper.cleanNow(orgId, [staged]).catch(() => false);
        if (e instanceof PointerChanged) return { status: 409, body: cleaned ? { error: AVATAR_CONFLICT } : { error: AVATAR_CONFLICT, cleanup_pending: true } };
        throw e;
      }
    }
    const member = { id: target.id, avatar_url: next.url };
    if (retired && !(await this.sweeper.cleanNow(orgId, [retired]))) {
      this.logger.warn('the replaced avatar is left to the worker');
      return { status: 202, body: { member, cleanup_pending: true } };
    }
    return { status: 200, body: { member } };
  }
}
