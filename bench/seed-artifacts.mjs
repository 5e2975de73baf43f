// Bulk seed of the artifact scenarios (run.mjs), in SQL (not through HTTP), after seed-issues.mjs:
// - one `research` artifact linked to the detail issue's project with BENCH_ARTIFACT_REVISIONS
//   (1,000) revisions of about 2 KB each (numbers 1..n, digests computed by PostgreSQL);
// - the detail issue (ctx.detailRef) gets one artifact of every type linked to it (its manifest).
// The database's own rules apply (gap-free numbers, digest check, one prd/plan per issue).
import pg from 'pg';

const TYPES = ['prd', 'implementation_plan', 'test_plan', 'decision', 'research', 'release_checklist'];

export async function seedArtifacts(databaseUrl, { orgId, detailRef, memberId, revisions = 1000 }) {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const [key, number] = detailRef.split('-');
    const { rows } = await c.query(
      `SELECT i.id, i.project_id FROM issues i JOIN projects p ON p.org_id = i.org_id AND p.id = i.project_id
        WHERE i.org_id = $1 AND p.key = $2 AND i.number = $3`,
      [orgId, key, Number(number)],
    );
    const issue = rows[0];
    if (!issue) throw new Error(`seed-artifacts: no issue ${detailRef}`);
    await c.query('BEGIN');
    const historyId = (await c.query(`SELECT md5('bench-artifact-history')::uuid AS id`)).rows[0].id;
    await c.query(
      `INSERT INTO artifacts (org_id, id, type, title, current_revision_id, current_revision_number, created_by_member_id, created_at, updated_at)
       VALUES ($1, $2, 'research', 'Bench research v' || $4::int, md5('bench-rev' || $4::int)::uuid, $4::int, $3, now() - interval '1 day', now())`,
      [orgId, historyId, memberId, revisions],
    );
    await c.query(
      `INSERT INTO artifact_revisions (org_id, id, artifact_id, revision_number, title_snapshot, content, content_format, content_digest, created_by_member_id, created_at)
       SELECT $1, md5('bench-rev' || g)::uuid, $2, g, 'Bench research v' || g, x.content, 'html', encode(sha256(convert_to(x.content, 'UTF8')), 'hex'), $3,
              now() - make_interval(mins => $4 - g)
         FROM generate_series(1, $4) g, LATERAL (SELECT '<p>' || repeat('Revision ' || g || ' of the bench research note. ', 50) || '</p>' AS content) x`,
      [orgId, historyId, memberId, revisions],
    );
    await c.query(
      `INSERT INTO artifact_links (org_id, id, artifact_id, artifact_type, target_type, project_id, created_by_member_id)
       VALUES ($1, md5('bench-history-link')::uuid, $2, 'research', 'project', $3, $4)`,
      [orgId, historyId, issue.project_id, memberId],
    );
    for (const [i, type] of TYPES.entries()) {
      const id = (await c.query(`SELECT md5('bench-manifest' || $1::text)::uuid AS id`, [type])).rows[0].id;
      const rev = (await c.query(`SELECT md5('bench-manifest-rev' || $1::text)::uuid AS id`, [type])).rows[0].id;
      await c.query(
        `INSERT INTO artifacts (org_id, id, type, title, current_revision_id, current_revision_number, created_by_member_id, created_at, updated_at)
         VALUES ($1, $2, $3, 'Bench ' || $3, $4, 1, $5, now() - make_interval(mins => $6), now() - make_interval(mins => $6))`,
        [orgId, id, type, rev, memberId, i],
      );
      await c.query(
        `INSERT INTO artifact_revisions (org_id, id, artifact_id, revision_number, title_snapshot, content, content_format, content_digest, created_by_member_id)
         VALUES ($1, $2, $3, 1, 'Bench ' || $4, '<p>bench</p>', 'html', encode(sha256(convert_to('<p>bench</p>', 'UTF8')), 'hex'), $5)`,
        [orgId, rev, id, type, memberId],
      );
      await c.query(
        `INSERT INTO artifact_links (org_id, id, artifact_id, artifact_type, target_type, issue_id, created_by_member_id)
         VALUES ($1, md5('bench-manifest-link' || $3::text)::uuid, $2, $3, 'issue', $4, $5)`,
        [orgId, id, type, issue.id, memberId],
      );
    }
    await c.query('COMMIT');
    await c.query('VACUUM ANALYZE artifacts, artifact_revisions, artifact_links');
    return { artifactHistoryId: historyId, artifactRevisions: revisions, manifestSize: TYPES.length };
  } catch (e) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    await c.end();
  }
}
