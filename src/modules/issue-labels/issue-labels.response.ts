export class IssueLabelResponse {
  id: string;
  name: string;
  /** `#rrggbb`, or null */
  color: string | null;
  description: string | null;
}
export class IssueLabelListResponse {
  labels: IssueLabelResponse[];
}
/** POST result: 201 when linked now, 200 when it already was (idempotent) */
export class IssueLabelAddedResponse {
  success: boolean;
  /** false when the label was already on the issue */
  added: boolean;
  label: IssueLabelResponse;
  /** Every label of the issue after the change */
  labels: IssueLabelResponse[];
}
export class IssueLabelRemovedResponse {
  success: boolean;
  labels: IssueLabelResponse[];
}
