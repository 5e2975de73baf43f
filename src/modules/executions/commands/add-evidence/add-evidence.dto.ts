import { IsIn, IsString, IsUUID, Length } from 'class-validator';
import { Alias } from '../../../../common/http/aliases';
import { EVIDENCE_LINK_TYPES, type EvidenceLinkType } from '../../execution-rules';

/** A reference to something the work produced or used. */
export class AddEvidenceDto {
  /** `issue`, `comment`, `artifact`, `pr_link`, `external_reference` or `attachment` */
  @IsIn(EVIDENCE_LINK_TYPES, { message: `link_type must be one of ${EVIDENCE_LINK_TYPES.join(', ')}` })
  @Alias('linkType')
  link_type!: EvidenceLinkType;

  /** UUID of the referenced record */
  @IsUUID('all', { message: 'target_id must be a UUID' })
  @Alias('targetId')
  target_id!: string;

  /** 1..200 characters */
  @IsString()
  @Length(1, 200)
  @Alias('idempotencyKey')
  idempotency_key!: string;
}
