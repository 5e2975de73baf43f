import { Platform1763800000000 } from './1763800000000-platform';
import { WorkTracking1763900000000 } from './1763900000000-work-tracking';
import { IssueCounts1764100000000 } from './1764100000000-issue-counts';
import { Notifications1764200000000 } from './1764200000000-notifications';
import { Webhooks1764300000000 } from './1764300000000-webhooks';
import { Automation1764400000000 } from './1764400000000-automation';
import { Strategy1764500000000 } from './1764500000000-strategy';
import { InitiativeTargets1764700000000 } from './1764700000000-initiative-targets';
import { KpiHttpSyncs1764800000000 } from './1764800000000-kpi-http-syncs';
import { DependencyGraphVersions1764900000000 } from './1764900000000-dependency-graph-versions';
import { DataVersions1765000000000 } from './1765000000000-data-versions';
import { StrategyDataVersion1765100000000 } from './1765100000000-strategy-data-version';
import { AutomationJobs1765300000000 } from './1765300000000-automation-jobs';
import { DependencyGraphProjects1765400000000 } from './1765400000000-dependency-graph-projects';
import { Invitations1765510000000 } from './1765510000000-invitations';
import { WebhooksHardening1765520000000 } from './1765520000000-webhooks-hardening';
import { IssueSearch1765540000000 } from './1765540000000-issue-search';
import { BoardColumnRecommendationRole1765550000000 } from './1765550000000-board-column-recommendation-role';
import { HeartbeatPolicy1765580000000 } from './1765580000000-heartbeat-policy';
import { OAuth1765600000000 } from './1765600000000-oauth';
import { Artifacts1765610000000 } from './1765610000000-artifacts';
import { StoredObjects1765620000000 } from './1765620000000-stored-objects';
import { Executions1765630000000 } from './1765630000000-executions';
import { EffectPresence1765640000000 } from './1765640000000-effect-presence';
import { HeartbeatDataVersion1765650000000 } from './1765650000000-heartbeat-data-version';
import { CitusReady1765660000000 } from './1765660000000-citus-ready';
import { ParityExtras1765740000000 } from './1765740000000-parity-extras';
import { SearchDataVersion1765780000000 } from './1765780000000-search-data-version';
import { SubjectVersions1765790000000 } from './1765790000000-subject-versions';
import { LeaseRenewalHot1765800000000 } from './1765800000000-lease-renewal-hot';
import { VerificationNotifications1765760000000 } from './1765760000000-verification-notifications';
import { KpiSnapshotIssueIndex1765670000000 } from './1765670000000-kpi-snapshot-issue-index';
import { DeploymentsInbox1765710000000 } from './1765710000000-deployments-inbox';
import { Github1765700000000 } from './1765700000000-github';
import { Avatars1765720000000 } from './1765720000000-avatars';
import { AttentionClaims1765750000000 } from './1765750000000-attention-claims';
import { HeartbeatWorkVersion1765770000000 } from './1765770000000-heartbeat-work-version';

/** Append-only: a landed migration is never edited; new ones are added at the end. */
export const MIGRATIONS = [
  Platform1763800000000,
  WorkTracking1763900000000,
  IssueCounts1764100000000,
  Notifications1764200000000,
  Webhooks1764300000000,
  Automation1764400000000,
  Strategy1764500000000,
  InitiativeTargets1764700000000,
  KpiHttpSyncs1764800000000,
  DependencyGraphVersions1764900000000,
  DataVersions1765000000000,
  StrategyDataVersion1765100000000,
  AutomationJobs1765300000000,
  DependencyGraphProjects1765400000000,
  Invitations1765510000000,
  WebhooksHardening1765520000000,
  IssueSearch1765540000000,
  BoardColumnRecommendationRole1765550000000,
  HeartbeatPolicy1765580000000,
  OAuth1765600000000,
  Artifacts1765610000000,
  StoredObjects1765620000000,
  Executions1765630000000,
  EffectPresence1765640000000,
  HeartbeatDataVersion1765650000000,
  CitusReady1765660000000,
  KpiSnapshotIssueIndex1765670000000,
  Github1765700000000,
  DeploymentsInbox1765710000000,
  Avatars1765720000000,
  ParityExtras1765740000000,
  AttentionClaims1765750000000,
  VerificationNotifications1765760000000,
  HeartbeatWorkVersion1765770000000,
  SearchDataVersion1765780000000,
  SubjectVersions1765790000000,
  LeaseRenewalHot1765800000000,
];
