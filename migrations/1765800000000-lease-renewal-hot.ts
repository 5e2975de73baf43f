import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Lease renewals and presence refreshes as HOT updates (heap-only tuples: no new index entries).
 * A renewal moves `expires_at`, which `runner_leases_expiry_idx` indexed, so every renewal (the
 * commonest write of the service, one per runner per second) wrote a new entry into each of the
 * table's indexes. The expiry sweep now finds active leases through `runner_leases_active_idx`,
 * which no renewal touches, and checks `expires_at` on the rows (active leases are few: one per
 * working runner). Both tables keep a fifth of each page free so that the new row version fits on
 * its page, which HOT needs. And the records of accepted lease writes (one per renewal) get an
 * index on `created_at` for the sweep that deletes them after their retention. (Not a BRIN: once
 * the sweep deletes, new rows fill the freed space of old pages and every block range would come to
 * span old and new times, so the sweep would read the whole table.)
 */
export class LeaseRenewalHot1765800000000 implements MigrationInterface {
  name = 'LeaseRenewalHot1765800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE INDEX runner_leases_active_idx ON runner_leases (org_id, id) WHERE state = 'active';
      DROP INDEX runner_leases_expiry_idx;
      ALTER TABLE runner_leases SET (fillfactor = 80);
      ALTER TABLE runner_installations SET (fillfactor = 80);
      CREATE INDEX runner_lease_mutations_created_idx ON runner_lease_mutations (created_at);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP INDEX runner_lease_mutations_created_idx;
      ALTER TABLE runner_installations RESET (fillfactor);
      ALTER TABLE runner_leases RESET (fillfactor);
      CREATE INDEX runner_leases_expiry_idx ON runner_leases (expires_at) WHERE state = 'active';
      DROP INDEX runner_leases_active_idx;
    `);
  }
}
