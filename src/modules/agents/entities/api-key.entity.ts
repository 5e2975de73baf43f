import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('api_keys')
export class ApiKeyEntity {
  @PrimaryColumn('uuid') orgId: string;
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') memberId: string;
  @Column('bytea') keyHash: Buffer;
  @Column('text') keyPrefix: string;
  @Column('uuid', { nullable: true }) createdByMemberId: string | null;
  @Column('timestamptz', { default: () => 'now()' }) createdAt: Date;
  @Column('timestamptz', { nullable: true }) lastUsedAt: Date | null;
  @Column('timestamptz', { nullable: true }) revokedAt: Date | null;
}
