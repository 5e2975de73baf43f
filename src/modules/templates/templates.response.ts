export class TemplateResponse {
  id: string;
  /** The project the template belongs to; null for an organization-wide template */
  project_id: string | null;
  /** 1..200 characters, unique in its scope (the project, or the organization) in any letter case */
  name: string;
  /** Sanitized HTML (the comment sanitizer's rules; Markdown is rendered first) */
  content: string;
  /** The member who created it (null when unknown) */
  created_by: string | null;
  created_at: string;
  updated_at: string;
}
export class TemplateEnvelope {
  template: TemplateResponse;
}
export class TemplateList {
  templates: TemplateResponse[];
  total: number;
  limit: number;
  offset: number;
}
export class TemplateDeleted {
  success: boolean;
}
