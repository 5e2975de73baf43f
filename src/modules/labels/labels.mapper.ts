import type { LabelRow } from './labels.repository';
import type { LabelResponse } from './labels.response';

export const toLabelResponse = (l: LabelRow): LabelResponse => ({
  id: l.id,
  name: l.name,
  color: l.color,
  description: l.description,
  created_at: new Date(l.created_at).toISOString(),
  updated_at: new Date(l.updated_at).toISOString(),
});
