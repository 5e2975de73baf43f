import type { EntityManager } from 'typeorm';

/**
 * What automation needs from outbound webhooks for `send_webhook` (the webhooks module's
 * `WebhookOutbox` implements it): check a destination, and write an `automation.action` delivery
 * (schema version 3, the body as given) inside the rule run's transaction, enqueued after commit.
 */
export interface AutomationWebhooks {
  /** 400 unless the webhook exists in the organization, is enabled and has purpose `automation` or `both`. */
  assertAutomationDestination(m: EntityManager, orgId: string, webhookId: string): Promise<void>;
  enqueueAutomationAction(
    m: EntityManager,
    input: { orgId: string; webhookId: string; ruleId: string; body: Record<string, unknown> },
  ): Promise<{ deliveryId: string }>;
}
export const AUTOMATION_WEBHOOKS = Symbol('AutomationWebhooks');
