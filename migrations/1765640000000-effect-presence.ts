import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `effect_presence`: per organization, how many webhooks and automation rules it has (any state),
 * kept exact by row triggers on `webhooks` and `automation_rules`. Issue writers read it with the
 * statement they run first anyway (the targets of a create, the locked row of an update), so the
 * webhook and automation subscribers of an organization that has none skip their look-ups: two
 * statements fewer per issue write in most organizations. No row means zero.
 */
export class EffectPresence1765640000000 implements MigrationInterface {
  name = 'EffectPresence1765640000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE effect_presence (
        org_id uuid PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
        webhooks int NOT NULL DEFAULT 0 CHECK (webhooks >= 0),
        automation_rules int NOT NULL DEFAULT 0 CHECK (automation_rules >= 0)
      );

      CREATE FUNCTION effect_presence_count() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        delta int := CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END;
        org uuid := CASE WHEN TG_OP = 'INSERT' THEN NEW.org_id ELSE OLD.org_id END;
      BEGIN
        IF TG_TABLE_NAME = 'webhooks' THEN
          INSERT INTO effect_presence AS e (org_id, webhooks) VALUES (org, greatest(delta, 0))
            ON CONFLICT (org_id) DO UPDATE SET webhooks = greatest(e.webhooks + delta, 0);
        ELSE
          INSERT INTO effect_presence AS e (org_id, automation_rules) VALUES (org, greatest(delta, 0))
            ON CONFLICT (org_id) DO UPDATE SET automation_rules = greatest(e.automation_rules + delta, 0);
        END IF;
        RETURN NULL;
      EXCEPTION WHEN foreign_key_violation THEN
        RETURN NULL; -- the organization itself is being deleted (cascade): nothing to count
      END $$;

      CREATE TRIGGER effect_presence_webhooks AFTER INSERT OR DELETE ON webhooks FOR EACH ROW EXECUTE FUNCTION effect_presence_count();
      CREATE TRIGGER effect_presence_automation_rules AFTER INSERT OR DELETE ON automation_rules FOR EACH ROW EXECUTE FUNCTION effect_presence_count();

      INSERT INTO effect_presence (org_id, webhooks, automation_rules)
      SELECT o.id,
             (SELECT count(*) FROM webhooks w WHERE w.org_id = o.id),
             (SELECT count(*) FROM automation_rules r WHERE r.org_id = o.id)
        FROM organizations o
       WHERE EXISTS (SELECT 1 FROM webhooks w WHERE w.org_id = o.id) OR EXISTS (SELECT 1 FROM automation_rules r WHERE r.org_id = o.id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TRIGGER IF EXISTS effect_presence_webhooks ON webhooks;
      DROP TRIGGER IF EXISTS effect_presence_automation_rules ON automation_rules;
      DROP FUNCTION IF EXISTS effect_presence_count();
      DROP TABLE IF EXISTS effect_presence;
    `);
  }
}
