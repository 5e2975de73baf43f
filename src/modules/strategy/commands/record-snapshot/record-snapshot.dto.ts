import { Allow } from 'class-validator';
import { Alias } from '../../../../common/http/aliases';

/** Values are checked by snapshotInput (strategy-input.ts). */
export class RecordSnapshotDto {
  /** Finite number */
  @Allow() value: number;
  /** `manual` (default), `webhook` or `agent` (`api_poll` and `formula` are written by the service) */
  @Allow() source?: string;
  /** Up to 2000 characters */
  @Alias('attributionNote') attribution_note?: string | null;
  /** Initiative that produced the measurement (readable by the caller) */
  @Alias('attributedToInitiativeId') attributed_to_initiative_id?: string | null;
  /** Issue that produced the measurement (readable by the caller) */
  @Alias('attributedToIssueId') attributed_to_issue_id?: string | null;
}
