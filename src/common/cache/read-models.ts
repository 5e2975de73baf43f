import { AsyncLocalStorage } from 'node:async_hooks';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { Clock } from '../clock/clock';
import type { BesideRead } from './data-versions.repository';
import { DataVersions, SUBJECT_SCOPES, subjectKey, type VersionScope, type VersionSubject } from './data-versions.service';
import { VersionedCache } from './versioned-cache';

/**
 * The read models whose computed results an API process keeps, each declared once: the version
 * scope(s) its results are trusted under, the tables its statements read (grouped by the scope
 * whose triggers version them), and the bounds of its in-process cache. Every one of them is
 * served through `ReadModels.serve`.
 *
 * Two tests hold the declarations to the database and the code (test/e2e/read-models.e2e-spec.ts):
 * every declared table carries the version-bumping trigger of its scope (pg_trigger), and every
 * table a model's statements read (EXPLAIN of the statements its requests run) is declared.
 * A table that is read but not declared, or declared without its trigger, would let a change go
 * unseen by a kept result.
 */

/** How a version scope is bumped: by triggers calling `bump` (with `arg` as their first argument). */
export interface VersionScopeTriggers {
  /** The trigger function that bumps it. */
  bump: string;
  /** The trigger argument that names the scope (data_versions' scopes share one function). */
  arg?: string;
  /** The statement trigger function that bumps every organization's version on TRUNCATE, where the scope has one. */
  bumpAll?: string;
}

/**
 * `issues`, `strategy`, `heartbeat` and `heartbeat_work`: rows of data_versions (migrations 1765000000000,
 * 1765100000000, 1765650000000, 1765770000000), bumped at commit; `dependency_graph`: dependency_graph_versions
 * (migrations 1764900000000, 1765400000000).
 */
export const VERSION_SCOPES: Record<VersionScope, VersionScopeTriggers> = {
  issues: { bump: 'data_versions_bump', arg: 'issues', bumpAll: 'data_versions_bump_all' },
  strategy: { bump: 'data_versions_bump', arg: 'strategy', bumpAll: 'data_versions_bump_all' },
  heartbeat: { bump: 'data_versions_bump', arg: 'heartbeat', bumpAll: 'data_versions_bump_all' },
  search: { bump: 'data_versions_bump', arg: 'search', bumpAll: 'data_versions_bump_all' },
  // an issue bumps it only when the heartbeat's work shows it (the function checks; migration 1765770000000)
  heartbeat_work: { bump: 'data_versions_bump_work', arg: 'heartbeat_work', bumpAll: 'data_versions_bump_all' },
  dependency_graph: { bump: 'dependency_graph_versions_bump' },
  // by project and by member (migration 1765790000000)
  issues_visible: { bump: 'subject_versions_bump', arg: 'project', bumpAll: 'subject_versions_bump_all' },
  attention_of: { bump: 'subject_versions_bump', arg: 'member', bumpAll: 'subject_versions_bump_all' },
};

export type WriteEvent = 'INSERT' | 'UPDATE' | 'DELETE';

/** A table a read model reads: bumped by its scope's trigger on `events` (default: all three). */
export interface ReadTable {
  table: string;
  /**
   * The writes that can change what the model reads from this table, when not all three (each
   * with its reason in `why`).
   */
  events?: readonly WriteEvent[];
  why?: string;
}

/**
 * A table kept by triggers on `from` (written in the same transaction as the change of `from`,
 * so `from`'s version trigger covers it).
 */
export interface DerivedTable {
  table: string;
  from: string;
}

export interface ReadModel<T = unknown> {
  name: string;
  /** What the model is, for the docs and the logs. */
  description: string;
  /** A kept result is trusted only at the combined version of these scopes it was computed at. */
  scopes: readonly VersionScope[];
  /** The tables its statements read, by the scope that versions them. */
  reads: Partial<Record<VersionScope, ReadonlyArray<string | ReadTable>>>;
  /** Tables maintained from a versioned table (no trigger of their own needed). */
  derived?: readonly DerivedTable[];
  /**
   * Read models whose kept results this one is computed from (served inside its computation):
   * their tables are theirs to declare, and their scopes must be among this model's `scopes` or
   * `trusts`.
   */
  uses?: readonly ReadModel<any>[];
  /**
   * Scopes of the models it uses that its own `scopes` already cover for what it shows of them
   * (each with the reason): it is not keyed by them, so a change that bumps only them keeps its
   * results. Their versions are read with its own, for the models it uses. Its own statements
   * read nothing versioned by them.
   */
  trusts?: Partial<Record<VersionScope, string>>;
  bounds: {
    /** Kept results per API process. */
    maxEntries: number;
    /** The sum of `weigh` over the kept results; a result heavier than an eighth of it is never kept. */
    maxWeight?: number;
    weigh?: (value: T) => number;
    /** Results also expire by age (results that depend on the clock; ages read the injected Clock). */
    maxAgeMs?: (config: AppConfig) => number;
    /** Past this fraction of the max age a hit is still served and recomputed in the background. */
    refreshAhead?: number;
  };
}

/**
 * A page of GET /issues: the response body and its weight (about the characters of its titles and
 * descriptions, plus a fixed amount per item). At most 2,000 pages and 16 M characters per process.
 */
export const ISSUE_LIST: ReadModel<{ weight: number }> = {
  name: 'issue-list',
  description: 'GET /issues pages (items and exact totals), keyed by caller, readable projects and every effective parameter',
  scopes: ['issues'],
  // items and totals, and the filters: initiative, labels, assignees, blocked
  reads: {
    issues: ['issues', 'projects', 'issue_assignees', 'issue_labels', 'issue_dependencies', 'board_columns', 'initiative_issues', 'initiative_milestones'],
  },
  // per-(project, status, priority, archived) counts, kept by statement triggers on issues
  derived: [{ table: 'issue_counts', from: 'issues' }],
  bounds: { maxEntries: 2000, maxWeight: 16 * 1024 * 1024, weigh: (page) => page.weight },
};

/** A page of GET /issues/{id}/dependencies?view=chain (one statement: CHAIN_SQL in dependencies.repository.ts). */
export const DEPENDENCY_CHAIN: ReadModel = {
  name: 'dependency-chain',
  description: 'dependency chain pages, keyed by root, walk, readable projects and page',
  scopes: ['dependency_graph'],
  reads: {
    dependency_graph: [
      'issue_dependencies',
      'board_columns',
      {
        table: 'issues',
        events: ['UPDATE'],
        why:
          'a new issue is in no graph until a dependency row names it; a deleted one takes its dependency rows with it. The trigger ' +
          'bumps only for issues with a dependency (and the columns the chain shows): the root of a chain without any is in the key',
      },
      {
        table: 'projects',
        events: ['UPDATE'],
        why: "nodes show their project's key and slug; a project is in no graph until an issue of it is, and its deletion moves or deletes its issues",
      },
    ],
  },
  bounds: { maxEntries: 2000 },
};

/**
 * Kept strategy audits (per API process): at most 256 (organization × visibility) results, and at
 * most 48,000 findings over all of them; an audit with more than an eighth of that (6,000
 * findings) is never kept. A kept finding costs about 1.5 KB (its object, ~420 bytes in the
 * unfiltered JSON and as much again over the filtered responses), so this bounds the cache to
 * about 70 MB per process (bench organization: 2,642 findings, 1.1 MB). The findings depend on the
 * clock (stale, off pace, overdue, stalled), which no version sees change: a result is served for
 * at most STRATEGY_AUDIT_CACHE_MAX_AGE_MS, refreshed in the background over the last quarter.
 */
export const STRATEGY_AUDIT: ReadModel<{ findings: readonly unknown[] }> = {
  name: 'strategy-audit',
  description: 'GET /strategy/audit (every finding, before the severity filter), keyed by visibility',
  scopes: ['issues', 'strategy'],
  reads: {
    issues: ['issues', 'projects', 'issue_dependencies', 'board_columns', 'initiative_issues', 'initiative_milestones'],
    strategy: [
      'goals',
      'kpis',
      'kpi_snapshots',
      'initiatives',
      'initiative_kpi_impacts',
      'initiative_projects',
      'milestones',
      'initiative_targets',
      'initiative_target_issues',
      'initiative_target_milestones',
    ],
  },
  bounds: {
    maxEntries: 256,
    maxWeight: 48_000,
    weigh: (audit) => audit.findings.length + 1,
    maxAgeMs: (config) => config.strategyAuditCacheMaxAgeMs,
    refreshAhead: 0.75,
  },
};

/**
 * Why a visibility's heartbeat is trusted at its projects' versions for the organization's work
 * (HEARTBEAT_WORK) it derives its part from: it shows only work beside its readable issues, and
 * every change of that work bumps those issues' projects (migration 1765790000000).
 */
const WORK_BY_PROJECT =
  'it shows of other projects only what stands beside its readable issues (whether their blockers still block, their ' +
  'initiatives counted from readable work): an issue bumps the projects of the issues it blocks, a board column those of the ' +
  "issues its project's issues block, a dependency both ends, an initiative link its issue's project; a milestone's link and " +
  'initiatives are strategy';

/**
 * What the heartbeat (both views) reads for the whole organization, whoever asks
 * (HeartbeatComposer.work): initiatives with every linked issue, and every unsatisfied dependency
 * of open work. Kept once per organization and version, so an issue write costs one computation
 * of it however many visibilities (agents' project sets) and views ask afterwards; each
 * HEARTBEAT_CONTEXT derives its readable part in memory (counts, stalls at its own instant, first
 * linked issues). Not clock-dependent (no stall or date rule is applied in it).
 */
export const HEARTBEAT_WORK: ReadModel<{ weight: number }> = {
  name: 'heartbeat-work',
  description: "the heartbeat's organization-wide initiatives (with linked issues) and dependencies",
  // its own version: an ordinary issue write (an issue in no initiative and no dependency) keeps it
  scopes: ['heartbeat_work'],
  reads: {
    heartbeat_work: [
      {
        table: 'issues',
        why:
          'the trigger bumps for an issue linked to an initiative (directly or through its old or new milestone) or in a dependency, ' +
          'checked at commit: an issue in neither is in no list of the work, and linking it, or adding a dependency, bumps by itself',
      },
      'issue_assignees',
      'issue_dependencies',
      'board_columns',
      'initiative_issues',
      'initiative_milestones',
      'initiatives',
      'initiative_kpi_impacts',
      'initiative_projects',
      'initiative_targets',
      'initiative_target_issues',
    ],
  },
  bounds: { maxEntries: 256, maxWeight: 400_000, weigh: (w) => w.weight },
};

/**
 * The goals and KPIs the agent heartbeat reads for one set of readable projects
 * (HeartbeatComposer.strategy): strategy records only, so an issue write keeps them. Not
 * clock-dependent (the context judges them at its own instant).
 */
export const HEARTBEAT_STRATEGY: ReadModel<{ weight: number }> = {
  name: 'heartbeat-strategy',
  description: "the heartbeat's goals and KPIs, keyed by readable projects",
  scopes: ['strategy'],
  reads: { strategy: ['goals', 'kpis', 'kpi_snapshots', 'initiatives'] },
  bounds: { maxEntries: 512, maxWeight: 400_000, weigh: (x) => x.weight },
};

/**
 * What the agent heartbeat reads for everyone who sees the same projects (HeartbeatComposer.context):
 * goals, KPIs, initiative targets, initiatives with readable-only aggregates, unsatisfied
 * dependencies, overdue milestones, KPI snapshots and board columns. Keyed by visibility (readable
 * project ids, projectless work) and view; depends on the clock (stale, stalled, overdue, due
 * soon): served for at most STRATEGY_AUDIT_CACHE_MAX_AGE_MS like the audit.
 */
export const HEARTBEAT_CONTEXT: ReadModel<{ weight: number }> = {
  name: 'heartbeat-context',
  description: "the heartbeat's strategy and work context, keyed by visibility and view",
  // the readable projects' issues, not the organization's: a write elsewhere keeps it
  scopes: ['issues_visible', 'strategy'],
  uses: [HEARTBEAT_WORK, HEARTBEAT_STRATEGY],
  trusts: { heartbeat_work: WORK_BY_PROJECT },
  reads: {
    issues_visible: [
      {
        table: 'issues',
        why:
          "bumps the issue's old and new project, its old and new milestone's project (a milestone's open issues are counted) " +
          'and the projects of the issues it blocks (a blocker of another project shows beside them)',
      },
      'projects',
      { table: 'board_columns', why: "bumps its project and the projects of the issues blocked by that project's issues (release columns)" },
      { table: 'issue_assignees', why: "bumps the issue's project (a blocker's owner shows only where its project is readable)" },
      { table: 'issue_dependencies', why: 'bumps the projects of both ends' },
      { table: 'initiative_issues', why: "bumps the issue's project (its readable linked work is counted)" },
    ],
    strategy: [
      { table: 'initiative_milestones', why: 'a link reaches every issue of the milestone, whatever its project' },
      'kpis',
      'kpi_snapshots',
      'initiatives',
      'initiative_kpi_impacts',
      'initiative_projects',
      'milestones',
      'initiative_targets',
      'initiative_target_issues',
      'initiative_target_milestones',
    ],
  },
  bounds: {
    maxEntries: 512,
    maxWeight: 400_000,
    weigh: (c) => c.weight,
    maxAgeMs: (config) => config.strategyAuditCacheMaxAgeMs,
    refreshAhead: 0.75,
  },
};

/**
 * The readable projects whose latest status update is off track (HeartbeatComposer.offTrack), per
 * set of readable projects: one statement per access group after a change instead of one per agent.
 */
export const HEARTBEAT_OFF_TRACK: ReadModel = {
  name: 'heartbeat-off-track',
  description: "the heartbeat's off-track projects, keyed by readable projects",
  scopes: ['issues_visible', 'heartbeat'],
  reads: {
    issues_visible: ['projects'],
    heartbeat: [{ table: 'project_status_updates', events: ['INSERT', 'DELETE'], why: 'status updates are never changed' }],
  },
  bounds: { maxEntries: 512 },
};

/** An agent's saved heartbeat policy (HeartbeatService.policyOf), per agent: issue writes keep it. */
export const HEARTBEAT_POLICY: ReadModel = {
  name: 'heartbeat-policy',
  description: "an agent's saved heartbeat policy, keyed by agent",
  scopes: ['heartbeat'],
  reads: { heartbeat: ['heartbeat_policies'] },
  bounds: { maxEntries: 4096 },
};

/**
 * One caller's attention part of the heartbeat (HeartbeatComposer.attention): its unread
 * notifications (page, total, counts by type) and its execution attention, under its visibility.
 * Keyed by member, visibility and whether the policy shows notifications. Versioned by the member
 * alone (`attention_of`): an ordinary issue write, or a notification to someone else, keeps it
 * (what it reads of an issue is where the issue is), so a recomposition reads only assigned work.
 */
export const HEARTBEAT_ATTENTION: ReadModel<{ weight: number }> = {
  name: 'heartbeat-attention',
  description: "one caller's unread notifications and execution attention for the heartbeat, keyed by member and visibility",
  // the member's own attention version: a notification to someone else keeps it
  scopes: ['attention_of'],
  reads: {
    attention_of: [
      'notifications',
      { table: 'comments', events: ['UPDATE'], why: "only deleted_at hides a notification (its recipients' versions are bumped)" },
      'attention_items',
      {
        table: 'agent_executions',
        events: ['INSERT', 'DELETE', 'UPDATE'],
        why: "execution_attention joins an execution for its issue (a change of its issue bumps its attention items' requesters)",
      },
      {
        table: 'issues',
        events: ['UPDATE', 'DELETE'],
        why:
          "a notification or an attention item is visible by its issue's current project: a move to another project bumps the " +
          'recipients and requesters (a deletion deletes them, which bumps); a new issue has no notification and no execution yet',
      },
    ],
  },
  bounds: { maxEntries: 4096, maxWeight: 400_000, weigh: (a) => a.weight },
};

/**
 * One caller's composed heartbeat (HeartbeatService): the briefing under the caller's saved policy
 * (HEARTBEAT_POLICY), with its assigned work, attention (HEARTBEAT_ATTENTION) and (owners/admins)
 * failing webhooks, computed from the kept HEARTBEAT_CONTEXT of the caller's visibility and the kept
 * HEARTBEAT_OFF_TRACK of its readable projects; for view=full the response itself. Keyed by member,
 * visibility, role-derived flags, display name and view. Versioned by the scopes of the models it
 * uses and `heartbeat` (webhooks' failures): by the caller's readable projects and its own
 * attention, so a write it cannot see keeps it. Clock-dependent like the context.
 */
export const HEARTBEAT: ReadModel<{ weight: number }> = {
  name: 'heartbeat',
  description: "one caller's composed heartbeat (policy, assigned work, attention, webhooks; built on heartbeat-context)",
  // the caller's readable projects and its own attention, not the organization's: see the models it uses
  scopes: ['issues_visible', 'strategy', 'heartbeat', 'attention_of'],
  uses: [HEARTBEAT_CONTEXT, HEARTBEAT_OFF_TRACK, HEARTBEAT_POLICY, HEARTBEAT_ATTENTION],
  trusts: { heartbeat_work: WORK_BY_PROJECT },
  reads: {
    issues_visible: [
      { table: 'issues', why: 'assigned work of readable projects, and their blockers (which bump the projects of the issues they block)' },
      'issue_assignees',
      'board_columns',
      { table: 'issue_dependencies', why: 'whether assigned work is blocked: bumps the projects of both ends' },
      { table: 'initiative_issues', why: "assigned work's initiatives: bumps the issue's project" },
    ],
    strategy: [{ table: 'initiative_milestones', why: "assigned work's initiatives through its milestone" }],
    heartbeat: ['webhooks'],
  },
  bounds: {
    maxEntries: 4096,
    maxWeight: 400_000,
    weigh: (h) => h.weight,
    maxAgeMs: (config) => config.strategyAuditCacheMaxAgeMs,
    refreshAhead: 0.75,
  },
};

/**
 * A page of GET /issues/search: full list items ranked by where `q` matched (title, description,
 * a live comment, a reference). Keyed by visibility, the search text, the reference candidates,
 * archive inclusion and page; at most 1,000 pages per process. Comments are versioned by their own
 * scope ('search'), so a comment does not throw away the kept issue list pages.
 */
export const ISSUE_SEARCH: ReadModel = {
  name: 'issue-search',
  description: 'GET /issues/search pages, keyed by visibility, text, reference candidates, archive inclusion and page',
  scopes: ['issues', 'search'],
  reads: {
    issues: ['issues', 'projects', 'issue_assignees', 'issue_labels'],
    search: [
      {
        table: 'comments',
        events: ['INSERT', 'UPDATE', 'DELETE'],
        why: 'updates bump only when the body, the deletion mark or the issue changes (what the search matches)',
      },
    ],
  },
  bounds: { maxEntries: 1000 },
};

/**
 * GET /analytics: the range's aggregates over the issues in a scope (member names and types are
 * joined after, uncached). Keyed by visibility, range, project and team; at most 512 per process.
 */
export const ANALYTICS: ReadModel = {
  name: 'analytics',
  description: 'GET /analytics aggregates, keyed by visibility, range, project and team',
  scopes: ['issues'],
  reads: {
    issues: [
      'issues',
      {
        table: 'activity_events',
        events: ['INSERT', 'DELETE'],
        why: 'only status moves are read (`issue.updated` entries with a `to_status`), and only those bump; timeline entries are never updated',
      },
    ],
  },
  bounds: { maxEntries: 512 },
};

export const READ_MODELS = [
  ISSUE_LIST,
  DEPENDENCY_CHAIN,
  STRATEGY_AUDIT,
  HEARTBEAT_WORK,
  HEARTBEAT_STRATEGY,
  HEARTBEAT_CONTEXT,
  HEARTBEAT_OFF_TRACK,
  HEARTBEAT_POLICY,
  HEARTBEAT_ATTENTION,
  HEARTBEAT,
  ANALYTICS,
  ISSUE_SEARCH,
] as const;

/** The declared tables of `model`, each with its scope and the writes that must bump it. */
export function declaredTables(model: ReadModel<any>): Array<{ scope: VersionScope; table: string; events: readonly WriteEvent[] }> {
  return (Object.entries(model.reads) as Array<[VersionScope, ReadonlyArray<string | ReadTable>]>).flatMap(([scope, tables]) =>
    tables.map((t) =>
      typeof t === 'string'
        ? { scope, table: t, events: ['INSERT', 'UPDATE', 'DELETE'] as const }
        : { scope, table: t.table, events: t.events ?? ['INSERT', 'UPDATE', 'DELETE'] },
    ),
  );
}

/** The scopes a model trusts its own to cover (`ReadModel.trusts`). */
export function trustedScopes(model: ReadModel<any>): VersionScope[] {
  return Object.keys(model.trusts ?? {}) as VersionScope[];
}

/** The versions read for the computation running in the current async context (models it uses are kept under them). */
const versionsRead = new AsyncLocalStorage<{ orgId: string; subject: string | null; versions: ReadonlyMap<VersionScope, string> }>();

/** The read model whose computation is running in the current async context (for logs and tests). */
const computing = new AsyncLocalStorage<string>();
export function computingReadModel(): string | undefined {
  return computing.getStore();
}

/**
 * The one way a read model's results are served: `serve(model, orgId, key, compute)` reads the
 * organization's version of the model's scopes first, then answers the result kept under `key`
 * at that version or `compute()`'s (one computation in flight per key and version; the
 * model's bounds; refresh ahead where declared). A kept result is never older than its version:
 * it was computed after the version was read. With READ_CACHE=off every call computes.
 *
 * Results are shared between requests and returned as the same object again: never mutate them
 * (so their JSON and gzip bytes can be kept too: serializeOnce).
 */
@Injectable()
export class ReadModels {
  private readonly caches = new Map<string, VersionedCache<any>>();

  constructor(
    private readonly versions: DataVersions,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async serve<V, T extends V>(model: ReadModel<V>, orgId: string, key: string, compute: () => Promise<T>, subject?: VersionSubject): Promise<T> {
    return (await this.serveWith(model, orgId, key, compute, subject)).result;
  }

  /**
   * `serve`, with the caller's own scalar read (`beside`) made in the statement that reads the
   * versions (alone when they are not read: READ_CACHE off, or known from an outer computation).
   */
  async serveWith<V, T extends V>(
    model: ReadModel<V>,
    orgId: string,
    key: string,
    compute: () => Promise<T>,
    subject?: VersionSubject,
    beside?: BesideRead,
  ): Promise<{ result: T; beside: string | null }> {
    // version first, then the result: a kept result is never older than the version it is kept under.
    // A model served inside another's computation (`uses`) takes its scopes' versions from the
    // outer model's read (its scopes are among the outer's, and subject versions are the same
    // subject's): they were read before either computation started, so the inner result is no
    // older than them either, and a miss costs one version read, not one per model. Otherwise
    // read outside any computation's context, so the version read is no model's statement.
    const bySubject = model.scopes.some((s) => SUBJECT_SCOPES.includes(s));
    const sk = bySubject && subject ? subjectKey(subject) : null;
    const outer = versionsRead.getStore();
    const known =
      this.config.readCache && outer?.orgId === orgId && (!bySubject || outer.subject === sk) && model.scopes.every((s) => outer.versions.has(s))
        ? outer.versions
        : null;
    const read = known
      ? { versions: known, beside: beside ? await this.besideAlone(orgId, beside) : null }
      : await computing.exit(() => this.versions.eachWith(orgId, [...model.scopes, ...trustedScopes(model)], subject, beside));
    const { versions } = read;
    const run = () =>
      versions
        ? versionsRead.run({ orgId, subject: sk ?? outer?.subject ?? null, versions }, () => computing.run(model.name, compute))
        : computing.run(model.name, compute);
    if (versions === null) return { result: await run(), beside: read.beside };
    const version = model.scopes.map((s) => versions.get(s)).join('.');
    // a model's results are all of one type (its handler's): the cache holds nothing else
    const result = await (this.cache(model) as unknown as VersionedCache<T>).through(`${orgId}\u0000${key}`, version, run);
    return { result, beside: read.beside };
  }

  /** A beside read alone (no versions read with it). */
  besideAlone(orgId: string, beside: BesideRead): Promise<string | null> {
    return computing.exit(() => this.versions.besideAlone(orgId, beside));
  }

  /** The model's cache in this process (made on first use). */
  cache<V>(model: ReadModel<V>): VersionedCache<V> {
    let cache = this.caches.get(model.name) as VersionedCache<V> | undefined;
    if (!cache) {
      const b = model.bounds;
      const maxAgeMs = b.maxAgeMs?.(this.config);
      cache = new VersionedCache<V>({
        maxEntries: b.maxEntries,
        ...(b.maxWeight !== undefined && { maxWeight: b.maxWeight }),
        ...(b.weigh && { weigh: b.weigh }),
        ...(maxAgeMs !== undefined && {
          maxAgeMs,
          // ages read the clock the time-dependent rules read
          now: () => this.clock.now().getTime(),
          ...(b.refreshAhead !== undefined && { refreshAfterMs: Math.floor(maxAgeMs * b.refreshAhead) }),
        }),
      });
      this.caches.set(model.name, cache);
    }
    return cache;
  }
}
