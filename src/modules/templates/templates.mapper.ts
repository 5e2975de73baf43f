import type { TemplateRow } from './templates.repository';
import type { TemplateResponse } from './templates.response';

export const toTemplateResponse = (t: TemplateRow): TemplateResponse => ({
  id: t.id,
  project_id: t.project_id,
  name: t.name,
  content: t.content,
  created_by: t.created_by_member_id,
  created_at: new Date(t.created_at).toISOString(),
  updated_at: new Date(t.updated_at).toISOString(),
});
