import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Full-text search of issues (GET /issues/search): a tsvector per issue (title weight A,
 * description weight B) and per comment (body, weight C), each a STORED generated column, so
 * PostgreSQL computes it inside the same INSERT/UPDATE that writes the text (no trigger, no extra
 * statement; an UPDATE that changes neither text does not recompute it), and a GIN index on each.
 *
 * - Configuration 'simple': lower-cased words, no stemming and no stop words (issue text mixes
 *   languages, code identifiers, versions and hosts; the search matches every word as a prefix,
 *   which covers "auth" → "authentication" without stemming).
 * - Comment bodies are sanitized HTML: the parser's tag and entity tokens are not indexed by
 *   'simple', so only the visible words are. Deleted comments (soft delete) are left out of the
 *   comment index (partial index), as they are out of every read.
 * - The GIN indexes keep fast update (new entries go to a pending list, merged in batches) with a
 *   pending list of at most 256 kB instead of the default 4 MB: every search reads the whole
 *   pending list, and a large one makes searches slow and the planner prefer a sequential scan
 *   until (auto)vacuum merges it; a small one is merged by the writer that fills it, in small steps.
 * - Infix matches on titles use the existing trigram index issues_title_trgm_idx (pg_trgm,
 *   migration 1763900000000), given the same pending list bound (titles are short: a few dozen
 *   trigrams per issue).
 *
 * Adding a stored generated column rewrites the table once (ACCESS EXCLUSIVE for its duration).
 */
export class IssueSearch1765540000000 implements MigrationInterface {
  name = 'IssueSearch1765540000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE issues ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('simple'::regconfig, coalesce(title, '')), 'A') ||
        setweight(to_tsvector('simple'::regconfig, coalesce(description, '')), 'B')
      ) STORED;
      CREATE INDEX issues_search_idx ON issues USING gin (search_vector) WITH (gin_pending_list_limit = 256);
      ALTER INDEX issues_title_trgm_idx SET (gin_pending_list_limit = 256);

      ALTER TABLE comments ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('simple'::regconfig, body), 'C')
      ) STORED;
      CREATE INDEX comments_search_idx ON comments USING gin (search_vector) WITH (gin_pending_list_limit = 256) WHERE deleted_at IS NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP INDEX IF EXISTS comments_search_idx;
      ALTER TABLE comments DROP COLUMN IF EXISTS search_vector;
      ALTER INDEX issues_title_trgm_idx RESET (gin_pending_list_limit);
      DROP INDEX IF EXISTS issues_search_idx;
      ALTER TABLE issues DROP COLUMN IF EXISTS search_vector;
    `);
  }
}
