/** A source-hosting connection (secrets are write-only: never returned). */
export class GithubConnectionResponse {
  id: string;
  org_id: string;
  provider: string;
  /** The account the token authenticated as, when the provider said */
  account_login: string | null;
  /** `off` or `attention` */
  verification_mode: string;
  enabled: boolean;
  /** Always true: a token is stored (write-only) */
  token_configured: boolean;
  /** Always true: a webhook secret is stored (write-only) */
  webhook_secret_configured: boolean;
  /** Path GitHub must POST webhooks to */
  webhook_path: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}
export class GithubConnectionEnvelope {
  connection: GithubConnectionResponse;
}
export class GithubConnectionListResponse {
  connections: GithubConnectionResponse[];
}
export class GithubSuccessResponse {
  success: boolean;
}

/** A pull-request link of an issue. */
export class PrLinkResponse {
  id: string;
  issue_id: string;
  pr_number: number;
  /** GitHub's numeric pull-request id; null until provider identity is known */
  pr_id: number | null;
  /** `owner/repo` */
  github_repo: string;
  /** GitHub's numeric repository id; null until provider identity is known */
  github_repository_id: number | null;
  /** The external reference of the same pull request, when one exists */
  external_reference_id: string | null;
  /** Canonical URL `https://github.com/<owner>/<repo>/pull/<number>` */
  pr_url: string;
  pr_title: string;
  /** `open`, `draft`, `closed`, `merged` or `unknown` (no provider data yet) */
  pr_status: string;
  head_sha: string | null;
  base_ref: string | null;
  base_sha: string | null;
  created_at: string;
  updated_at: string;
}
export class PrLinkEnvelope {
  pr_link: PrLinkResponse;
}
export class PrLinkListResponse {
  pr_links: PrLinkResponse[];
}

/** A linked external reference (a GitHub pull request proven by live provider ids). */
export class ExternalReferenceResponse {
  /** The link id (use it as `source_external_reference_link_id` on artifacts) */
  id: string;
  external_reference_id: string;
  /** `issue` or `project` */
  target_type: string;
  target_id: string;
  /** `github` */
  provider: string;
  /** `pull_request` */
  object_type: string;
  /** `github_api`: proven by a live provider response */
  provenance: string;
  canonical_url: string;
  label: string | null;
  github_repo: string;
  github_repository_id: number;
  pr_number: number;
  pr_id: number;
  created_by: string | null;
  created_at: string;
}
export class ExternalReferenceEnvelope {
  external_reference: ExternalReferenceResponse;
}
export class ExternalReferenceListResponse {
  /** Every linked reference (no paging) */
  external_references: ExternalReferenceResponse[];
}

export class DeliveryRepository {
  github_repo: string;
  github_repository_id: number | null;
  owner: string;
  repo: string;
}
export class DeliveryPullRequest {
  number: number;
  pr_id: number | null;
  url: string;
  title: string;
  base_ref: string | null;
  base_sha: string | null;
}
export class DeliveryPrObservation {
  state: string;
  observed_at: string | null;
  provider_event_id: string | null;
  source_url: string | null;
}
export class DeliveryReviewer {
  reviewer: string | null;
  reviewer_id: number | null;
  /** `approved` or `changes_requested` */
  state: string;
  submitted_at: string | null;
}
export class DeliveryReview {
  /** `approved`, `changes_requested` or `none` */
  state: string;
  approvals: number;
  changes_requested: number;
  reviewers: DeliveryReviewer[];
}
export class DeliveryCheckRun {
  id: string;
  status: string;
  conclusion: string | null;
  app_id: number | null;
}
export class DeliveryCommitStatus {
  id: string;
  state: string;
}
export class DeliveryRequiredCheck {
  context: string;
  integration_id: number | null;
  /** `classic`, `ruleset` or both */
  policy_sources: string[];
  /** `pending`, `passed`, `failed`, `cancelled` or `unknown` */
  result: string;
  check_run: DeliveryCheckRun | null;
  commit_status: DeliveryCommitStatus | null;
}
export class DeliveryRequiredChecks {
  /** `disabled`, `complete`, `partial` or `unavailable` */
  state: string;
  /** `none`, `pending`, `passed`, `failed`, `cancelled` or `unknown` */
  aggregate: string;
  /** At most 200 identities */
  checks: DeliveryRequiredCheck[];
  truncated: boolean;
}
export class DeliveryWorkflow {
  id: string;
  name: string | null;
  path: string | null;
  run_attempt: number | null;
  status: string | null;
  conclusion: string | null;
  /** `pending`, `passed`, `failed`, `cancelled` or `unknown` */
  result: string;
  /** Configured workflow paths are never required */
  required: boolean;
  html_url: string | null;
  observed_at: string | null;
}
export class DeliveryHistory {
  /** Earlier head SHAs, newest first (at most 20) */
  head_shas: string[];
  reviews: number;
  check_runs: number;
  statuses: number;
  workflow_runs: number;
}
export class DeliveryProvenance {
  /** `provider` (live read), `webhook` (stored observations) or `none` */
  source: string;
  provider_event_ids: string[];
  source_url: string;
}
export class DeliveryFreshness {
  observed_at: string | null;
  read_at: string;
  link_updated_at: string;
}
export class DeliveryVerification {
  enabled: boolean;
}
export class DeliveryBlocker {
  code: string;
  message: string;
}
export class DeliveryContextResponse {
  link_id: string;
  repository: DeliveryRepository;
  pull_request: DeliveryPullRequest;
  head_sha: string | null;
  /** The selected link's status (authoritative) */
  pr_status: string;
  pr_observation: DeliveryPrObservation | null;
  review: DeliveryReview;
  required_checks: DeliveryRequiredChecks;
  workflows: DeliveryWorkflow[];
  history: DeliveryHistory;
  provenance: DeliveryProvenance;
  freshness: DeliveryFreshness;
  verification: DeliveryVerification;
  blocker: DeliveryBlocker | null;
  partial: boolean;
}
export class DeliveryContextEnvelope {
  /** null when the issue has no pull-request link */
  deliveryContext: DeliveryContextResponse | null;
}

export class GithubWebhookResponse {
  accepted: boolean;
  duplicate: boolean;
  /** The event was signed but not one this service uses */
  skipped?: boolean;
}
