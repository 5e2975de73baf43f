import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('sessions')
export class SessionEntity {
  @PrimaryColumn('uuid') id: string;
  @Column('bytea') tokenHash: Buffer;
  @Column('uuid') userId: string;
  @Column('timestamptz', { default: () => 'now()' }) createdAt: Date;
  @Column('timestamptz', { default: () => 'now()' }) lastSeenAt: Date;
  @Column('timestamptz') expiresAt: Date;
}
