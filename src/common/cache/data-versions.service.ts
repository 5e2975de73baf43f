import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { DataVersionsRepository } from './data-versions.repository';

/**
 * Read models with a per-organization version (migrations/1765000000000-data-versions.ts;
 * 'heartbeat': 1765650000000; 'heartbeat_work': 1765770000000; 'search': 1765780000000).
 */
export type DataScope = 'issues' | 'strategy' | 'heartbeat' | 'heartbeat_work' | 'search';
/** Every version scope: the data_versions scopes and the dependency graph's own version. */
export type VersionScope = DataScope | 'dependency_graph';

/**
 * The current version of an organization's read model, bumped by triggers at the COMMIT of every
 * transaction that changes what the model reads (a sum of stripe counters: see the migration). Read it BEFORE computing a result and store the
 * result under it (VersionedCache): the result is then never older than its version.
 */
@Injectable()
export class DataVersions {
  constructor(
    private readonly versions: DataVersionsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Each scope's version (a data_versions scope: the sum of its stripe counters), the scopes read
   * together in one statement (one snapshot); null when any is missing or READ_CACHE is off (then
   * nothing may be kept). The dependency graph has a version of its own and is read alone.
   */
  async each(orgId: string, scopes: readonly VersionScope[]): Promise<ReadonlyMap<VersionScope, string> | null> {
    if (!this.config.readCache) return null;
    if (scopes.includes('dependency_graph')) {
      if (scopes.length !== 1) throw new Error('The dependency graph version is read alone');
      const v = await this.dependencyGraph(orgId);
      return v === null ? null : new Map([['dependency_graph', v]]);
    }
    const rows = await this.versions.scopeVersions(orgId, scopes);
    if (rows.length !== scopes.length) return null;
    return new Map(rows.map((r) => [r.scope as VersionScope, r.version]));
  }

  /**
   * The organization's dependency-graph version (migration 1764900000000: bumped only by changes
   * the chain view reads, so ordinary issue writes keep chain pages), or null as above.
   */
  async dependencyGraph(orgId: string): Promise<string | null> {
    if (!this.config.readCache) return null;
    return (await this.versions.dependencyGraph(orgId)) ?? null;
  }
}
