import { Injectable } from '@nestjs/common';
import { Sql } from '../../database/sql.service';

/** The nil UUID: the subject of projectless issues (migration 1765790000000). */
export const PROJECTLESS_SUBJECT = '00000000-0000-0000-0000-000000000000';
/** The epoch subject every subject version includes: TRUNCATE bumps it (migration 1765790000000). */
export const EPOCH_SUBJECT = 'ffffffff-ffff-ffff-ffff-ffffffffffff';

/** Subject versions to read beside the scopes: a name for the result, the kind and its subjects (summed). */
export interface SubjectRead {
  name: string;
  kind: 'project' | 'member';
  subjects: readonly string[];
}

/**
 * A caller's own scalar read made in the same statement as the versions (one round trip less on
 * every request that reads both): `select` returns a scalar SQL expression of type text, `$1` is
 * the organization and `param` adds a parameter and returns its placeholder.
 */
export interface BesideRead {
  select: (param: (value: unknown) => string) => string;
}

/** A beside read's SQL, its parameters appended to `params` (numbered after those already there). */
const besideSql = (read: BesideRead, params: unknown[]): string => read.select((v) => `$${params.push(v)}`);

/** The per-organization version counters read models are kept under (migrations: data versions, dependency graph versions, subject versions). */
@Injectable()
export class DataVersionsRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * Each requested scope's version (the sum of its stripe counters; a scope without rows is
   * missing) and each subject read's (the sum over its subjects and the epoch, 0 before any bump),
   * in one statement (one snapshot).
   */
  scopeVersions(
    orgId: string,
    scopes: readonly string[],
    subjects: readonly SubjectRead[] = [],
    beside?: BesideRead,
  ): Promise<Array<{ scope: string | null; version: string | null }>> {
    const params: unknown[] = [orgId, scopes];
    const parts = ['SELECT scope, sum(version)::text AS version FROM data_versions WHERE org_id = $1 AND scope = ANY($2::text[]) GROUP BY scope'];
    // the beside read is the row whose scope is null
    if (beside) parts.push(`SELECT NULL::text, (${besideSql(beside, params)})::text`);
    for (const s of subjects) {
      params.push(s.name, s.kind, [...s.subjects, EPOCH_SUBJECT]);
      const n = params.length;
      parts.push(
        `SELECT $${n - 2}::text, coalesce(sum(version), 0)::text FROM subject_versions WHERE org_id = $1 AND kind = $${n - 1}::text AND subject = ANY($${n}::uuid[])`,
      );
    }
    return this.sql.rows<{ scope: string | null; version: string | null }>(parts.join(' UNION ALL '), params);
  }

  /** A beside read alone (when no versions are read with it). */
  async beside(orgId: string, read: BesideRead): Promise<string | null> {
    const params: unknown[] = [orgId];
    return (await this.sql.row<{ value: string | null }>(`SELECT (${besideSql(read, params)})::text AS value`, params))?.value ?? null;
  }

  /** The organization's dependency-graph version, or undefined. */
  async dependencyGraph(orgId: string): Promise<string | undefined> {
    return (await this.sql.row<{ version: string }>('SELECT version FROM dependency_graph_versions WHERE org_id = $1', [orgId]))?.version;
  }
}
