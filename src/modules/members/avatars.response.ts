/** The target member as an avatar change shows it: only these two fields. */
export class AvatarMember {
  /** The member whose avatar changed */
  id: string;
  /** The new avatar's public URL (path on this service) */
  avatar_url: string;
}
/** `{ member }`; on 202 also `cleanup_pending: true` (removal of the replaced object is queued for the worker). */
export class AvatarUploaded {
  member: AvatarMember;
  /** Present (true) only on 202: the replaced avatar's object is removed later by the worker */
  cleanup_pending?: true;
}
/** `{ success: true }`; on 202 also `cleanup_pending: true`. */
export class AvatarDeleted {
  success: true;
  /** Present (true) only on 202: the removed avatar's object is removed later by the worker */
  cleanup_pending?: true;
}
/** 409: the avatar changed between this request's read and its compare-and-set; nothing of this request remains visible. */
export class AvatarConflict {
  /** Always `Avatar changed concurrently` */
  error: 'Avatar changed concurrently';
  /** Present (true) only when removal of this request's staged object (or a retired one) is still queued */
  cleanup_pending?: true;
}
