import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

export interface WebhookHealth {
  webhookId: string;
  destinationDisplay: string;
  enabled: boolean;
  /** Failed attempts since the last successful one (reset by a success). */
  consecutiveFailures: number;
  lastFailureAt: Date | null;
  lastSuccessAt: Date | null;
}

/**
 * Per-destination delivery health, for the heartbeat `webhook_failing` signal: destinations of an
 * organization with at least `minFailures` consecutive failed attempts, worst first.
 */
@Injectable()
export class WebhookHealthReader {
  constructor(private readonly db: DataSource) {}

  async failing(orgId: string, minFailures = 1): Promise<WebhookHealth[]> {
    const rows: Array<{ id: string; destination_display: string; enabled: boolean; consecutive_failures: number; last_failure_at: Date | null; last_success_at: Date | null }> =
      await this.db.query(
        `SELECT id, destination_display, enabled, consecutive_failures, last_failure_at, last_success_at FROM webhooks
          WHERE org_id = $1 AND consecutive_failures >= $2 ORDER BY consecutive_failures DESC, last_failure_at DESC NULLS LAST, id LIMIT 100`,
        [orgId, Math.max(1, minFailures)],
      );
    return rows.map((r) => ({
      webhookId: r.id,
      destinationDisplay: r.destination_display,
      enabled: r.enabled,
      consecutiveFailures: r.consecutive_failures,
      lastFailureAt: r.last_failure_at,
      lastSuccessAt: r.last_success_at,
    }));
  }
}
