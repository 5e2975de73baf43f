export class LabelResponse {
  id: string;
  /** Unique in the organization, case-insensitively */
  name: string;
  /** `#rrggbb`, or null */
  color: string | null;
  description: string | null;
  created_at: string;
  updated_at: string;
}
export class LabelEnvelope {
  label: LabelResponse;
}
export class LabelList {
  labels: LabelResponse[];
  total: number;
  limit: number;
  offset: number;
}
export class SuccessResponse {
  success: boolean;
}
