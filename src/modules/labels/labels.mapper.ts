import type { LabelEntity } from './entities/label.entity';
import type { LabelResponse } from './labels.response';

export const toLabelResponse = (l: LabelEntity): LabelResponse => ({
  id: l.id,
  name: l.name,
  color: l.color,
  description: l.description,
  created_at: new Date(l.createdAt).toISOString(),
  updated_at: new Date(l.updatedAt).toISOString(),
});
