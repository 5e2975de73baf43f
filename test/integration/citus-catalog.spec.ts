import { Client } from 'pg';

/**
 * The schema stays distributable by organization with Citus (docs/CITUS.md): a catalog check on
 * the migrated test database, so no later migration brings back an object Citus would refuse.
 * - every table with tenant data has a NOT NULL org_id (the distribution column);
 * - every primary key and unique index of a tenant table includes org_id;
 * - every foreign key between tenant tables pairs org_id with org_id (a tenant table's key to
 *   `organizations` is its org_id), and none sets columns to NULL/DEFAULT on delete or update
 *   (column list or not; citusdata/citus#7132);
 * - no global (reference) table has a foreign key into a tenant table (Citus refuses those).
 */

/**
 * Tables that are not distributed on org_id, each with why. Everything else is tenant data.
 * Reference tables are replicated to every node; `organizations` is distributed on its `id`
 * (co-located with the org_id of the tenant tables).
 */
const NOT_TENANT: Record<string, string> = {
  organizations: 'distributed on id (= org_id of every tenant table)',
  users: 'reference: a person, across organizations',
  sessions: "reference: a user's browser session, before any organization is chosen",
  api_key_lookup: 'reference: API key hash → organization, key (found before the organization is known)',
  oauth_clients: 'reference: registered OAuth clients, of no organization',
  oauth_authorization_requests: "reference: a user's pending consent, before organizations are chosen",
  oauth_grants: "reference: a user's OAuth connection (its agents live in oauth_grant_agents, a tenant table)",
  oauth_codes: 'reference: authorization codes of a grant',
  oauth_tokens: 'reference: access and refresh tokens of a grant',
  schema_migrations: "TypeORM's migration bookkeeping (not data)",
};

export interface CatalogProblem {
  kind: 'no org_id' | 'key without org_id' | 'foreign key without org_id' | 'set null/default' | 'reference to tenant';
  object: string;
}

/** What Citus would refuse in `schema`, sorted; `notTenant` names the tables that are not tenant data. */
export async function catalogProblems(db: Client, schema: string, notTenant: readonly string[]): Promise<CatalogProblem[]> {
  const { rows } = await db.query<CatalogProblem>(
    `WITH t AS (
       SELECT c.oid, c.relname, NOT (c.relname = ANY($2::text[])) AS tenant,
              (SELECT a.attnum FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'org_id' AND NOT a.attisdropped) AS org_att,
              (SELECT a.attnotnull FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'org_id' AND NOT a.attisdropped) AS org_notnull
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND NOT c.relispartition
     ),
     fk AS (
       SELECT k.conname, k.conkey, k.confkey, k.confdeltype, k.confupdtype, k.confdelsetcols,
              src.relname AS src, src.tenant AS src_tenant, src.org_att AS src_org,
              dst.relname AS dst, dst.tenant AS dst_tenant, dst.org_att AS dst_org
         FROM pg_constraint k JOIN t src ON src.oid = k.conrelid JOIN t dst ON dst.oid = k.confrelid
        WHERE k.contype = 'f'
     )
     SELECT 'no org_id' AS kind, relname AS object FROM t WHERE tenant AND (org_att IS NULL OR NOT org_notnull)
     UNION ALL
     SELECT 'key without org_id', t.relname || '.' || i.relname
       FROM t JOIN pg_index x ON x.indrelid = t.oid JOIN pg_class i ON i.oid = x.indexrelid
      WHERE t.tenant AND (x.indisunique OR x.indisprimary) AND (t.org_att IS NULL OR NOT t.org_att = ANY (x.indkey::int2[]))
     UNION ALL
     -- tenant → tenant: org_id at the same position on both sides; tenant → organizations: (org_id) → (id)
     SELECT 'foreign key without org_id', src || '.' || conname FROM fk
      WHERE src_tenant AND (dst_tenant OR dst = 'organizations')
        AND NOT (CASE WHEN dst = 'organizations' THEN conkey = ARRAY[src_org]
                      ELSE src_org IS NOT NULL AND dst_org IS NOT NULL AND array_position(conkey, src_org) IS NOT NULL
                           AND array_position(conkey, src_org) = array_position(confkey, dst_org) END)
     UNION ALL
     SELECT 'set null/default', src || '.' || conname FROM fk
      WHERE src_tenant AND (dst_tenant OR dst = 'organizations')
        AND (confdelsetcols IS NOT NULL OR confdeltype IN ('n', 'd') OR confupdtype IN ('n', 'd'))
     UNION ALL
     SELECT 'reference to tenant', src || '.' || conname FROM fk WHERE NOT src_tenant AND src <> 'organizations' AND (dst_tenant OR dst = 'organizations')
     ORDER BY 1, 2`,
    [schema, notTenant],
  );
  return rows;
}

describe('Citus catalog check (the schema distributes on org_id)', () => {
  let db: Client;
  const probe = `citus_catalog_probe_${process.pid}`;

  beforeAll(async () => {
    // CITUS_CATALOG_DATABASE_URL: run the same check on another database (a copy of production, an older schema)
    db = new Client({ connectionString: process.env.CITUS_CATALOG_DATABASE_URL ?? process.env.DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    await db?.query(`DROP SCHEMA IF EXISTS ${probe} CASCADE`);
    await db?.end();
  });

  it('the allow-list names only tables that exist (it cannot hide a renamed or dropped table)', async () => {
    const { rows } = await db.query<{ relname: string }>(
      `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relname = ANY($1::text[]) AND c.relkind = 'r'`,
      [Object.keys(NOT_TENANT)],
    );
    expect(rows.map((r) => r.relname).sort()).toEqual(Object.keys(NOT_TENANT).sort());
  });

  it('the migrated schema has nothing Citus would refuse', async () => {
    expect(await catalogProblems(db, 'public', Object.keys(NOT_TENANT))).toEqual([]);
  });

  it('finds each kind of blocker (a probe schema with one of each)', async () => {
    await db.query(`DROP SCHEMA IF EXISTS ${probe} CASCADE; CREATE SCHEMA ${probe}`);
    await db.query(`
      CREATE TABLE ${probe}.organizations (id uuid PRIMARY KEY);
      CREATE TABLE ${probe}.users (id uuid PRIMARY KEY);
      CREATE TABLE ${probe}.parents (org_id uuid NOT NULL REFERENCES ${probe}.organizations(id), id uuid NOT NULL, PRIMARY KEY (org_id, id));
      CREATE UNIQUE INDEX parents_id_uq ON ${probe}.parents (id);
      CREATE TABLE ${probe}.children (
        org_id uuid NOT NULL REFERENCES ${probe}.organizations(id),
        id uuid NOT NULL,
        parent_id uuid,
        other_id uuid REFERENCES ${probe}.parents(id),
        code text,
        PRIMARY KEY (org_id, id),
        CONSTRAINT children_parent_fk FOREIGN KEY (org_id, parent_id) REFERENCES ${probe}.parents(org_id, id) ON DELETE SET NULL (parent_id)
      );
      CREATE UNIQUE INDEX children_code_uq ON ${probe}.children (code);
      CREATE TABLE ${probe}.queue (id uuid PRIMARY KEY, payload text);
      ALTER TABLE ${probe}.users ADD COLUMN child_id uuid, ADD COLUMN child_org uuid,
        ADD CONSTRAINT users_child_fk FOREIGN KEY (child_org, child_id) REFERENCES ${probe}.children(org_id, id);
    `);
    expect(await catalogProblems(db, probe, ['organizations', 'users'])).toEqual([
      { kind: 'foreign key without org_id', object: 'children.children_other_id_fkey' },
      { kind: 'key without org_id', object: 'children.children_code_uq' },
      { kind: 'key without org_id', object: 'parents.parents_id_uq' },
      { kind: 'key without org_id', object: 'queue.queue_pkey' },
      { kind: 'no org_id', object: 'queue' },
      { kind: 'reference to tenant', object: 'users.users_child_fk' },
      { kind: 'set null/default', object: 'children.children_parent_fk' },
    ]);
  });
});
