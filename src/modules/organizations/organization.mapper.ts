import type { OrgRole } from '../../common/auth/roles';
import { nameHead } from '../../common/naming/slug';
import type { OrganizationEntity } from './entities/organization.entity';
import type { OrganizationResponse } from './organizations.response';

export const toOrganizationResponse = (o: OrganizationEntity, role: OrgRole): OrganizationResponse => ({
  id: o.id,
  name: o.name,
  issue_prefix: o.issuePrefix,
  plan: o.plan,
  role,
  created_at: o.createdAt.toISOString(),
  updated_at: o.updatedAt.toISOString(),
});

/** Default prefix from the name: its initials or first letters, uppercase, 2..6 characters. */
export function derivePrefix(name: string): string {
  const words = nameHead(name)
    .normalize('NFKD')
    .toUpperCase()
    .replace(/[^A-Z0-9 ]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
  let p = words.length > 1 ? words.map((w) => w[0]).join('') : (words[0] ?? '');
  p = p.replace(/^[0-9]+/, '');
  if (p.length < 2) p = (p + (words.join('').replace(/^[0-9]+/, '') || 'ORG')).slice(0, 4);
  if (p.length < 2) p = 'ORG';
  return p.slice(0, 6);
}
