export class WebhookAuthResponse {
  /** `bearer` or `none` */
  type: string;
  /** Whether a bearer token is stored (it is never returned) */
  configured: boolean;
}
export class StandardWebhooksResponse {
  /** Whether a Standard Webhooks secret is stored (it is never returned) */
  configured: boolean;
}
export class WebhookResponse {
  id: string;
  org_id: string;
  /** Origin of the destination only (scheme, host, port): no path, query or signing material */
  destination_display: string;
  /** Deprecated: equals `destination_display` */
  url: string;
  /** Subscribed events: `issue.created`, `issue.updated` */
  events: string[];
  enabled: boolean;
  /** `webhook` (subscriptions only), `automation` (automation `send_webhook` only) or `both` */
  purpose: string;
  auth: WebhookAuthResponse;
  standard_webhooks: StandardWebhooksResponse;
  created_at: string;
  updated_at: string;
}
export class WebhookEnvelope {
  webhook: WebhookResponse;
}
export class WebhookCreatedEnvelope {
  webhook: WebhookResponse;
  /** The signing secret, shown once: `X-Service-Signature` is HMAC-SHA256 keyed by its SHA-256 hex digest */
  secret: string;
}
export class WebhookList {
  webhooks: WebhookResponse[];
  total: number;
  limit: number;
  offset: number;
}
export class WebhookDeliveryResponse {
  /** Delivery record id (what redeliver takes) */
  id: string;
  /** The `X-Service-Delivery-Id` / `Idempotency-Key` value */
  delivery_id: string;
  event: string;
  schema_version: number;
  /** `pending`, `delivered`, `retry_pending` or `failed` */
  status: string;
  /** HTTP status of the last attempt, or null */
  status_code: number | null;
  /** Stable failure code of the last attempt (`http_error`, `timeout`, `network_error`, `blocked_address`, `dns_failure`, `redirect`, `too_large`, `invalid_url` — the URL breaks the destination rules, e.g. a blocked port, `destination_disabled`, `secret_unreadable` — a stored secret of the destination does not open: sealed under another key or for another row, `internal_error` — the delivery could not be prepared otherwise), or null */
  error_code: string | null;
  attempts: number;
  delivered_at: string | null;
  next_retry_at: string | null;
  /** The delivery record this one re-sent (manual redelivery), or null */
  redelivery_of: string | null;
  created_at: string;
  /** Whether the payload is still kept (redelivery possible). Payloads of delivered deliveries are dropped after WEBHOOK_PAYLOAD_RETENTION_DAYS (default 7); the record stays until WEBHOOK_DELIVERY_RETENTION_DAYS (default 30) */
  payload_retained: boolean;
}
export class WebhookDeliveryList {
  deliveries: WebhookDeliveryResponse[];
}
export class WebhookDeliveryEnvelope {
  delivery: WebhookDeliveryResponse;
}
export class SuccessResponse {
  success: boolean;
}
