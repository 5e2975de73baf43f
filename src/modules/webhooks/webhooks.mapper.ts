import type { WebhookDeliveryResponse, WebhookResponse } from './webhooks.response';

export interface WebhookRow {
  org_id: string;
  id: string;
  destination_display: string;
  events: string[];
  enabled: boolean;
  purpose: string;
  current_version_id: string;
  auth_type: string;
  has_bearer: boolean;
  has_standard: boolean;
  created_at: Date;
  updated_at: Date;
}

/** Columns of `webhooks w` joined with its current version `v`, as WebhookRow. */
export const WEBHOOK_COLUMNS = `w.org_id, w.id, w.destination_display, w.events, w.enabled, w.purpose, w.current_version_id, w.created_at, w.updated_at,
  v.auth_type, v.bearer_enc IS NOT NULL AS has_bearer, v.standard_secret_enc IS NOT NULL AS has_standard`;
export const WEBHOOK_FROM = 'webhooks w JOIN webhook_versions v ON v.org_id = w.org_id AND v.id = w.current_version_id';

export const toWebhookResponse = (r: WebhookRow): WebhookResponse => ({
  id: r.id,
  org_id: r.org_id,
  destination_display: r.destination_display,
  url: r.destination_display,
  events: r.events,
  enabled: r.enabled,
  purpose: r.purpose,
  auth: { type: r.auth_type, configured: r.has_bearer },
  standard_webhooks: { configured: r.has_standard },
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
});

export interface DeliveryRow {
  id: string;
  delivery_id: string;
  event: string;
  schema_version: number;
  status: string;
  status_code: number | null;
  error_code: string | null;
  attempts: number;
  delivered_at: Date | null;
  next_retry_at: Date | null;
  redelivery_of: string | null;
  created_at: Date;
  payload_retained: boolean;
}
export const DELIVERY_COLUMNS =
  'id, delivery_id, event, schema_version, status, status_code, error_code, attempts, delivered_at, next_retry_at, redelivery_of, created_at, body IS NOT NULL AS payload_retained';

/** History rows: never the payload, the receiver's response or raw errors. */
export const toDeliveryResponse = (d: DeliveryRow): WebhookDeliveryResponse => ({
  id: d.id,
  delivery_id: d.delivery_id,
  event: d.event,
  schema_version: d.schema_version,
  status: d.status,
  status_code: d.status_code,
  error_code: d.error_code,
  attempts: d.attempts,
  delivered_at: d.delivered_at?.toISOString() ?? null,
  next_retry_at: d.next_retry_at?.toISOString() ?? null,
  redelivery_of: d.redelivery_of,
  created_at: d.created_at.toISOString(),
  payload_retained: d.payload_retained,
});
