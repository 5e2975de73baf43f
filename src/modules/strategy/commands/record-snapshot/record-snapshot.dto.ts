import { Allow } from 'class-validator';

/** Values are checked by snapshotInput (strategy-input.ts). */
export class RecordSnapshotDto {
  /** Finite number */
  @Allow() value: number;
  /** `manual` (default), `webhook` or `agent` (`api_poll` and `formula` are written by the service) */
  @Allow() source?: string;
  /** Up to 2000 characters */
  @Allow() attribution_note?: string | null;
  /** Alias of attribution_note */
  @Allow() attributionNote?: string | null;
  /** Initiative that produced the measurement (readable by the caller) */
  @Allow() attributed_to_initiative_id?: string | null;
  /** Alias of attributed_to_initiative_id */
  @Allow() attributedToInitiativeId?: string | null;
  /** Issue that produced the measurement (readable by the caller) */
  @Allow() attributed_to_issue_id?: string | null;
  /** Alias of attributed_to_issue_id */
  @Allow() attributedToIssueId?: string | null;
}
