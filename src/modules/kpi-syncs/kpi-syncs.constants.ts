export const KPI_SYNC_QUEUE = 'kpi-http-syncs';
export const KPI_SYNC_SWEEP = 'kpi-http-sync-sweep';
