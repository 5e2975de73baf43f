/** Bull queue of webhook deliveries: one job = one attempt of one delivery row, or of a batch of them. */
export const WEBHOOKS_QUEUE = 'webhooks';
export const DELIVER_JOB = 'deliver';
/** Hourly job on the same queue: history retention, payload pruning, re-seal of values sealed without binding. */
export const MAINTENANCE_JOB = 'maintenance';
/** One attempt of each of up to DELIVERY_BATCH delivery rows (the destinations of a change; a drain's due rows). */
export const DELIVER_BATCH_JOB = 'deliver-batch';
export const DELIVERY_BATCH = 25;

/** Event names a destination can subscribe to. */
export const SUBSCRIBABLE_EVENTS = [
  'issue.created',
  'issue.updated',
  'artifact.created',
  'artifact.revised',
  'attention.resolved',
  'project.status_updated',
] as const;
export type SubscribableEvent = (typeof SUBSCRIBABLE_EVENTS)[number];
export type DeliveryEvent = SubscribableEvent | 'ping' | 'automation.action';
export const PURPOSES = ['webhook', 'automation', 'both'] as const;
export type WebhookPurpose = (typeof PURPOSES)[number];

/** Payload schema versions: subscription broadcasts and ping 2, automation actions 3. */
export const BROADCAST_SCHEMA_VERSION = 2;
export const AUTOMATION_SCHEMA_VERSION = 3;

/** Timing of deliveries; tests inject short delays through WEBHOOK_TIMING. */
export interface WebhookTiming {
  /** Delays before the in-path retries (attempts 2 and 3): 5 s and 30 s. */
  retryDelaysMs: number[];
  /** After the in-path retries: first sweep retry this long after the last failure, doubling. */
  sweepBaseDelayMs: number;
  sweepMaxDelayMs: number;
  /** Total attempts (in-path and sweep) before a delivery is `failed` for good. */
  maxAttempts: number;
  /** A claimed delivery is locked this long (longer than one attempt); a crashed worker's claim expires. */
  leaseMs: number;
  /** The drain leaves rows younger than this to the after-commit enqueue. */
  drainGraceMs: number;
  /** Time limit of one attempt. */
  attemptTimeoutMs: number;
}
export const WEBHOOK_TIMING = Symbol('WEBHOOK_TIMING');
export const DEFAULT_WEBHOOK_TIMING: WebhookTiming = {
  retryDelaysMs: [5_000, 30_000],
  sweepBaseDelayMs: 15 * 60_000,
  sweepMaxDelayMs: 6 * 3600_000,
  maxAttempts: 10,
  leaseMs: 60_000,
  drainGraceMs: 10_000,
  attemptTimeoutMs: 30_000,
};
/** Largest receiver response read (then discarded): 64 KiB. */
export const MAX_RECEIVER_RESPONSE_BYTES = 64 * 1024;
/** Overlap window of a rotated signing key. */
export const SIGNING_KEY_OVERLAP_MS = 7 * 24 * 3600_000;
/** Delivery history page: newest first, at most this many. */
export const MAX_HISTORY = 100;
/** Rows one maintenance statement touches at most (each batch is its own short statement). */
export const MAINTENANCE_BATCH_SIZE = 1000;
/** Batches per step and run: a backlog larger than this is worked off by the next hourly runs. */
export const MAINTENANCE_MAX_BATCHES = 500;
