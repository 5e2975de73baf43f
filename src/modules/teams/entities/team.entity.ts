import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('teams')
export class TeamEntity {
  @PrimaryColumn('uuid') orgId: string;
  @PrimaryColumn('uuid') id: string;
  @Column('text') name: string;
  @Column('text') slug: string;
  @Column('text', { nullable: true }) description: string | null;
  @Column('timestamptz', { default: () => 'now()' }) createdAt: Date;
  @Column('timestamptz', { default: () => 'now()' }) updatedAt: Date;
}

@Entity('team_members')
export class TeamMemberEntity {
  @PrimaryColumn('uuid') orgId: string;
  @PrimaryColumn('uuid') teamId: string;
  @PrimaryColumn('uuid') memberId: string;
  @Column('timestamptz', { default: () => 'now()' }) createdAt: Date;
}
