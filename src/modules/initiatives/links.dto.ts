import { Alias } from '../../common/http/aliases';

/** Issue link body. Values are checked by the handler (one readable 400 per problem). */
export class IssueLinkDto {
  /** Any issue reference form: UUID, `42`, `#42`, `<ORG_PREFIX>-42`, `TSK-42`, `<PROJECT_KEY>-42`; the canonical UUID is stored */
  @Alias('issueId') issue_id: string;
}

/** Milestone link body. */
export class MilestoneLinkDto {
  /** Milestone UUID or exact name (several readable milestones with that name in the initiative's projects: 409 ambiguous_milestone) */
  @Alias('milestoneId') milestone_id: string;
}
