import { Injectable } from '@nestjs/common';
import { Sql } from '../../database/sql.service';

/** The per-organization version counters read models are kept under (migrations: data versions, dependency graph versions). */
@Injectable()
export class DataVersionsRepository {
  constructor(private readonly sql: Sql) {}

  /** Each requested scope's version (the sum of its stripe counters); a scope without rows is missing. */
  scopeVersions(orgId: string, scopes: readonly string[]): Promise<Array<{ scope: string; version: string }>> {
    return this.sql.rows<{ scope: string; version: string }>(
      'SELECT scope, sum(version)::text AS version FROM data_versions WHERE org_id = $1 AND scope = ANY($2::text[]) GROUP BY scope',
      [orgId, scopes],
    );
  }

  /** The organization's dependency-graph version, or undefined. */
  async dependencyGraph(orgId: string): Promise<string | undefined> {
    return (await this.sql.row<{ version: string }>('SELECT version FROM dependency_graph_versions WHERE org_id = $1', [orgId]))?.version;
  }
}
