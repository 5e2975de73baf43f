import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Action, Condition, TriggerEvent } from '../automation-rule.model';

@Entity('automation_rules')
export class AutomationRuleEntity {
  @PrimaryColumn('uuid') orgId: string;
  @PrimaryColumn('uuid') id: string;
  /** null = every issue of the organization. */
  @Column('uuid', { nullable: true }) projectId: string | null;
  @Column('text') name: string;
  @Column('text') triggerEvent: TriggerEvent;
  @Column('jsonb') conditions: Condition[];
  @Column('jsonb') actions: Action[];
  @Column('boolean') enabled: boolean;
  @Column('uuid', { nullable: true }) createdByMemberId: string | null;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}

export type RunStatus = 'success' | 'failed' | 'skipped';

/** One real run of a rule (matched an issue change): types of the actions run, never their inputs. */
@Entity('automation_rule_runs')
export class AutomationRuleRunEntity {
  @PrimaryColumn('uuid') orgId: string;
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') ruleId: string;
  /** The domain event that triggered it (one run per rule and event). */
  @Column('uuid') eventId: string;
  @Column('text') triggerEvent: TriggerEvent;
  @Column('uuid') issueId: string;
  @Column('text') status: RunStatus;
  @Column('text', { array: true }) actions: string[];
  @Column('text', { nullable: true }) errorCode: string | null;
  @Column('integer') automationDepth: number;
  @Column('timestamptz') startedAt: Date;
  @Column('timestamptz') finishedAt: Date;
}
