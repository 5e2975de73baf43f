export class HealthResponse {
  /** `ok` when every dependency answers */
  status: 'ok' | 'degraded';
  database: 'ok' | 'down';
  redis: 'ok' | 'down';
}
