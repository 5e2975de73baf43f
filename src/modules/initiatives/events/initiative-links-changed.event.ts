/**
 * The work linked to an initiative changed: an issue or milestone was linked or unlinked
 * (initiative_issues, initiative_milestones), or the initiative moved to another goal or was
 * deleted. Published on the CQRS EventBus AFTER the change committed, so handlers (the formula KPI
 * recalculation of `goal_linked_issue_completion`) read the new state.
 *
 * `goalIds` lists every goal whose formula inputs may have changed: the initiative's goal, and on
 * a goal change or delete the previous one too (empty when the initiative has no goal).
 */
export type InitiativeLinkChange = 'issue_linked' | 'issue_unlinked' | 'milestone_linked' | 'milestone_unlinked' | 'goal_changed' | 'initiative_deleted';

export class InitiativeLinksChangedEvent {
  readonly at = new Date();
  constructor(
    readonly orgId: string,
    readonly initiativeId: string,
    readonly goalIds: string[],
    readonly change: InitiativeLinkChange,
  ) {}
}
