export class OrganizationResponse {
  id: string;
  name: string;
  /** Default issue prefix of the organization (e.g. `ACME` for `ACME-12`) */
  issue_prefix: string;
  /** `unlimited` or `free` */
  plan: string;
  /** The caller's role in this organization */
  role: 'owner' | 'admin' | 'member' | 'guest';
  created_at: string;
  updated_at: string;
}
export class OrganizationEnvelope {
  organization: OrganizationResponse;
}
export class OrganizationList {
  organizations: OrganizationResponse[];
  total: number;
  limit: number;
  offset: number;
}
export class PlanLimits {
  /** null = unlimited */
  humans: number | null;
  agents: number | null;
  activeProjects: number | null;
  activeIssues: number | null;
}
export class PlanUsage {
  humans: number;
  agents: number;
  activeProjects: number;
  activeIssues: number;
}
export class BillingResponse {
  plan: string;
  limits: PlanLimits;
  usage: PlanUsage;
}
export class SuccessResponse {
  success: boolean;
}
