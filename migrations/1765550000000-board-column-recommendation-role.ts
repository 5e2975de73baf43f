import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Board columns get an optional workflow role for recommendations (`recommendation_role`):
 * `candidate`, `active` or `excluded`; NULL means not configured (never recommended from).
 * The database refuses any other value.
 */
export class BoardColumnRecommendationRole1765550000000 implements MigrationInterface {
  name = 'BoardColumnRecommendationRole1765550000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE board_columns ADD COLUMN recommendation_role text;
      ALTER TABLE board_columns ADD CONSTRAINT board_columns_recommendation_role_check
        CHECK (recommendation_role IN ('candidate', 'active', 'excluded'));
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE board_columns DROP COLUMN recommendation_role;`);
  }
}
