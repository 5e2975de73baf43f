import { Allow } from 'class-validator';
import { Alias } from '../../common/http/aliases';

/**
 * Body of POST (create draft), PUT (validate a proposed config) and PATCH (update). Values are
 * checked by sync-config.ts (every problem in one 400). camelCase aliases are accepted.
 */
export class SyncConfigDto {
  /** 1..200 characters (required on create) */
  @Allow() name?: string;
  /** `manual`, `hourly`, `daily` (default) or `weekly` (UTC slots) */
  @Allow() schedule?: string;
  /** `{ method: "GET", url: "https://<allowlisted host>/<path>", headers?: { Authorization: { secretRef, format: "Bearer {value}" } | "X-API-Key": { secretRef, format: "{value}" } } }` */
  @Alias('requestConfig') request_config?: unknown;
  /** `{ contentType: "json", pointer: "/data/value", numeric: { mode: "number" | "percentage", percentageScale: null | 1 | 100 } }` */
  @Alias('extractionConfig') extraction_config?: unknown;
  /** `{ maxAgeHours?, providerTimestampPointer? }` (default `{}`) */
  @Alias('freshnessConfig') freshness_config?: unknown;
}
