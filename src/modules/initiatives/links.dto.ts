import { Allow } from 'class-validator';

/** Issue link body. Values are checked by the handler (one readable 400 per problem). */
export class IssueLinkDto {
  /** Any issue reference form: UUID, `42`, `#42`, `<ORG_PREFIX>-42`, `TSK-42`, `<PROJECT_KEY>-42`; the canonical UUID is stored */
  @Allow() issue_id: string;
  /** Alias of issue_id */
  @Allow() issueId?: string;
}

/** Milestone link body. */
export class MilestoneLinkDto {
  /** Milestone UUID or exact name (several readable milestones with that name in the initiative's projects: 409 ambiguous_milestone) */
  @Allow() milestone_id: string;
  /** Alias of milestone_id */
  @Allow() milestoneId?: string;
}
